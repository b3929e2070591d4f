import { AppError, acceptInvitationOp, signInOp, signInSecondStepOp, signOutOp, TwoFactorCode } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { clearSessionCookie, SESSION_COOKIE, sessionCookieOptions, sessionTokenOf, TWO_FACTOR_COOKIE } from "../dashboard-session.ts";
import { formOf } from "../form.ts";
import { newPasswordFields, NewPasswordForm } from "../new-password-fields.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const SignInForm = z.object({ email: z.string().max(254), password: z.string().max(256) });
const SecondStepForm = z.object({ code: TwoFactorCode });
const AcceptForm = NewPasswordForm.extend({ token: z.string().min(1, "is missing: open the whole invitation link").max(128) });

/** Sign-in, sign-out, and the invitation page that sets a new user's password. */
export async function signInRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const signInPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status?: number, email = "") =>
    sendPage(ctx, request, reply, {
      title: "Sign in",
      status,
      error,
      body: html`<form class="card narrow" method="post" action="/dashboard/sign-in">${csrfField(reply)}
        <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
        <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
        <p><button type="submit">Sign in</button></p>
        <p><a href="/dashboard/forgot">Forgot password?</a></p></form>`,
    });

  const secondStepPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status?: number) =>
    sendPage(ctx, request, reply, {
      title: "Two-factor sign-in",
      status,
      error,
      body: html`<form class="card narrow" method="post" action="/dashboard/sign-in/two-factor">${csrfField(reply)}
        <p class="muted">Enter the six-digit code your authenticator app shows for Payrail, or one of your recovery codes.</p>
        <label for="code">Code</label><input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="32">
        <p><button type="submit">Sign in</button></p></form>`,
    });

  /** A session for the browser: its cookie, and the dashboard. */
  const signedIn = (request: FastifyRequest, reply: FastifyReply, session: { session_token: string; expires_at: string }) => {
    const maxAge = Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000);
    reply.setCookie(SESSION_COOKIE, session.session_token, sessionCookieOptions(request, maxAge));
    return reply.redirect("/dashboard", 303);
  };

  /** The sign-in delay's page, whichever step met it. */
  const delayed = (reply: FastifyReply, retryAfter: number) => {
    reply.header("retry-after", String(retryAfter));
    return `Too many sign-in attempts. Try again in ${waitText(retryAfter)}.`;
  };

  app.get("/dashboard/sign-in", async (request, reply) => {
    if (request.dashboardUser) return reply.redirect("/dashboard", 303);
    return signInPage(request, reply);
  });

  app.post("/dashboard/sign-in", async (request, reply) => {
    const form = formOf(request, SignInForm);
    try {
      const result = await callService(ctx, request, signInOp, { email: form.email, password: form.password, client_address: request.ip });
      if ("session_token" in result) return signedIn(request, reply, result);
      // The password was right; the second factor comes on its own page, the challenge in its own cookie.
      const maxAge = Math.floor((Date.parse(result.expires_at) - Date.now()) / 1000);
      reply.setCookie(TWO_FACTOR_COOKIE, result.two_factor_token, sessionCookieOptions(request, maxAge));
      return reply.redirect("/dashboard/sign-in/two-factor", 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "invalid_credentials") return signInPage(request, reply, "The email or password is wrong.", 401, form.email);
      // The same page whether or not the password was right: a delay proves nothing otherwise.
      if (err.code === "too_many_attempts") return signInPage(request, reply, delayed(reply, err.retryAfter ?? 60), 429, form.email);
      throw err;
    }
  });

  app.get("/dashboard/sign-in/two-factor", async (request, reply) => {
    if (!sessionTokenOf(request, TWO_FACTOR_COOKIE)) return reply.redirect("/dashboard/sign-in", 303);
    return secondStepPage(request, reply);
  });

  app.post("/dashboard/sign-in/two-factor", async (request, reply) => {
    const token = sessionTokenOf(request, TWO_FACTOR_COOKIE);
    if (!token) return redirectDone(reply, "/dashboard/sign-in", "sign-in-expired");
    let form: z.output<typeof SecondStepForm>;
    try {
      form = formOf(request, SecondStepForm);
    } catch {
      return secondStepPage(request, reply, "Enter the six-digit code or a recovery code.", 400);
    }
    try {
      const session = await callService(ctx, request, signInSecondStepOp, { two_factor_token: token, code: form.code, client_address: request.ip });
      reply.clearCookie(TWO_FACTOR_COOKIE, sessionCookieOptions(request));
      return signedIn(request, reply, session);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "invalid_two_factor_code") return secondStepPage(request, reply, "That code is wrong or was already used.", 401);
      if (err.code === "too_many_attempts") return secondStepPage(request, reply, delayed(reply, err.retryAfter ?? 60), 429);
      if (err.code === "session_invalid") {
        reply.clearCookie(TWO_FACTOR_COOKIE, sessionCookieOptions(request));
        return redirectDone(reply, "/dashboard/sign-in", "sign-in-expired");
      }
      throw err;
    }
  });

  app.post("/dashboard/sign-out", async (request, reply) => {
    const token = sessionTokenOf(request);
    if (token) await callService(ctx, request, signOutOp, { session_token: token });
    clearSessionCookie(request, reply);
    return redirectDone(reply, "/dashboard/sign-in", "signed-out");
  });

  const acceptPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status?: number, token = "") =>
    sendPage(ctx, request, reply, {
      title: "Set your password",
      status,
      error,
      body: html`<form class="card narrow" method="post" action="/dashboard/accept">${csrfField(reply)}
        <input type="hidden" id="invitation-token" name="token" value="${token}">
        <p class="muted">You were invited to a merchant's Payrail dashboard. Choose a password of at least 10 characters.</p>
        ${newPasswordFields()}
        <p><button type="submit">Set password</button></p></form>`,
    });

  app.get("/dashboard/accept", async (request, reply) => acceptPage(request, reply));

  app.post("/dashboard/accept", async (request, reply) => {
    const body = (request.body ?? {}) as { token?: unknown };
    const token = typeof body.token === "string" ? body.token : "";
    let form: z.output<typeof AcceptForm>;
    try {
      form = formOf(request, AcceptForm);
    } catch (err) {
      return acceptPage(request, reply, err instanceof AppError ? err.message : "The form is invalid.", 400, token);
    }
    if (form.password !== form.confirm) return acceptPage(request, reply, "The two passwords differ.", 400, token);
    try {
      await callService(ctx, request, acceptInvitationOp, { token: form.token, password: form.password });
    } catch (err) {
      if (err instanceof AppError && err.code === "invitation_invalid") {
        return acceptPage(request, reply, "This invitation link is unknown, used or expired. Ask for a new one.", 401);
      }
      throw err;
    }
    return redirectDone(reply, "/dashboard/sign-in", "accepted");
  });
}

/** "40 seconds", "2 minutes": how long the sign-in delay has left, as a person reads it. */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
