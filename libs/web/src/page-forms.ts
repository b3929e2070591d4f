import csrfProtection from "@fastify/csrf-protection";
import formBody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";
import { registerCookies } from "./cookies.ts";

export interface PageFormsOptions {
  /** Cookies Secure whatever the request's protocol (production, behind a TLS proxy). */
  secureCookies: boolean;
  /** The cookie that keeps this app's CSRF secret. */
  csrfCookie: string;
  /** The app's paths: its cookies go nowhere else. */
  path: string;
  /** The CSRF secret's SameSite: Strict where no link from elsewhere needs a form (the dashboard). */
  sameSite: "strict" | "lax";
}

/**
 * What an app of HTML forms registers in its own scope, so that the API stays JSON-only and
 * cookie-free: cookies (cookies.ts), urlencoded bodies up to 16 KiB, and @fastify/csrf-protection
 * with its secret in an httpOnly cookie on the app's paths (Secure as the request's: csrf-token.ts
 * sets it on every secret cookie it makes).
 */
export async function registerPageForms(app: FastifyInstance, options: PageFormsOptions): Promise<void> {
  await registerCookies(app, { alwaysSecure: options.secureCookies });
  await app.register(formBody, { bodyLimit: 16 * 1024 });
  await app.register(csrfProtection, {
    sessionPlugin: "@fastify/cookie",
    cookieKey: options.csrfCookie,
    cookieOpts: { path: options.path, httpOnly: true, sameSite: options.sameSite },
  });
}
