import { AppError, acceptInvitationOp, NewPassword, signInOp, signOutOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { clearSessionCookie, SESSION_COOKIE, sessionCookieOptions, sessionTokenOf } from "../dashboard-session.ts";
import { formOf } from "../form.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

const SignInForm = z.object({ email: z.string().max(254), password: z.string().max(256) });
const AcceptForm = z.object({ token: z.string().min(1, "is missing: open the whole invitation link").max(128), password: NewPassword, confirm: z.string().max(256) });

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
        <p><button type="submit">Sign in</button></p></form>`,
    });

  app.get("/dashboard/sign-in", async (request, reply) => {
    if (request.dashboardUser) return reply.redirect("/dashboard", 303);
    return signInPage(request, reply);
  });

  app.post("/dashboard/sign-in", async (request, reply) => {
    const form = formOf(request, SignInForm);
    try {
      const session = await callService(ctx, request, signInOp, { email: form.email, password: form.password, client_address: request.ip });
      const maxAge = Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000);
      reply.setCookie(SESSION_COOKIE, session.session_token, sessionCookieOptions(request, maxAge));
      return reply.redirect("/dashboard", 303);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "invalid_credentials") return signInPage(request, reply, "The email or password is wrong.", 401, form.email);
      if (err.code === "too_many_attempts") {
        // The same page whether or not the password was right: a delay proves nothing otherwise.
        const retryAfter = err.retryAfter ?? 60;
        reply.header("retry-after", String(retryAfter));
        return signInPage(request, reply, `Too many sign-in attempts. Try again in ${waitText(retryAfter)}.`, 429, form.email);
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
        <label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
        <label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="10" required>
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
