import type { FastifyReply } from "fastify";
import type {} from "./cookies.ts";
import { html, type Html } from "./html.ts";

const tokens = new WeakMap<FastifyReply, string>();

/**
 * The CSRF token of this reply's forms (the portal's, the dashboard's), made once per reply: to a
 * browser without the secret cookie yet, each generateCsrf sets a new secret, and the last one
 * set would void the tokens of the page's other forms. The secret's cookie, when set, is Secure
 * as the scope's session cookie is (cookies.ts).
 */
export function csrfToken(reply: FastifyReply): string {
  let token = tokens.get(reply);
  if (token === undefined) {
    token = reply.generateCsrf({ secure: reply.request.cookieSecure });
    tokens.set(reply, token);
  }
  return token;
}

/** A form's hidden CSRF field, which @fastify/csrf-protection reads from the body as `_csrf`. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
