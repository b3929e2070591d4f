import { AppError, requestPasswordResetOp, resetPasswordOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { formOf } from "../form.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";
import { newPasswordFields, NewPasswordForm } from "../new-password-fields.ts";

const ForgotForm = z.object({ email: z.string().trim().min(1, "is missing").max(254) });
const ResetForm = NewPasswordForm.extend({ token: z.string().min(1, "is missing: open the whole link from the email").max(128) });

/**
 * "Forgot password?" and the emailed link's page (docs/decisions/0052-dashboard-two-factor-and-reset.md).
 * The request's answer is the same whether or not the email has a user.
 */
export async function passwordResetRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const forgotPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status?: number) =>
    sendPage(ctx, request, reply, {
      title: "Reset your password",
      status,
      error,
      body: html`<form class="card narrow" method="post" action="/dashboard/forgot">${csrfField(reply)}
        <p class="muted">Enter your dashboard email. If it belongs to a user, a link to choose a new password is emailed to it.</p>
        <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
        <p><button type="submit">Email me a link</button></p>
        <p><a href="/dashboard/sign-in">Back to sign-in</a></p></form>`,
    });

  app.get("/dashboard/forgot", async (request, reply) => forgotPage(request, reply));

  app.post("/dashboard/forgot", async (request, reply) => {
    let form: z.output<typeof ForgotForm>;
    try {
      form = formOf(request, ForgotForm);
    } catch (err) {
      return forgotPage(request, reply, err instanceof AppError ? err.message : "The form is invalid.", 400);
    }
    try {
      await callService(ctx, request, requestPasswordResetOp, { email: form.email, client_address: request.ip });
    } catch (err) {
      if (err instanceof AppError && err.code === "too_many_attempts") {
        reply.header("retry-after", String(err.retryAfter ?? 60));
        return forgotPage(request, reply, "Too many reset requests from here. Try again later.", 429);
      }
      throw err;
    }
    return redirectDone(reply, "/dashboard/forgot", "reset-sent");
  });

  const resetPage = (request: FastifyRequest, reply: FastifyReply, token: string, error?: string, status?: number) =>
    sendPage(ctx, request, reply, {
      title: "Choose a new password",
      status,
      error,
      body: html`<form class="card narrow" method="post" action="/dashboard/reset">${csrfField(reply)}
        <input type="hidden" id="reset-token" name="token" value="${token}">
        <p class="muted">Choose a password of at least 10 characters. Every session of your account ends when it is set.</p>
        ${newPasswordFields()}
        <p><button type="submit">Set password</button></p></form>`,
    });

  app.get("/dashboard/reset", async (request, reply) => {
    const token = (request.query as { token?: unknown }).token;
    // The token stays out of the page's links and of other sites' referrers.
    reply.header("referrer-policy", "no-referrer");
    return resetPage(request, reply, typeof token === "string" ? token.slice(0, 128) : "");
  });

  app.post("/dashboard/reset", async (request, reply) => {
    const body = (request.body ?? {}) as { token?: unknown };
    const token = typeof body.token === "string" ? body.token.slice(0, 128) : "";
    let form: z.output<typeof ResetForm>;
    try {
      form = formOf(request, ResetForm);
    } catch (err) {
      return resetPage(request, reply, token, err instanceof AppError ? err.message : "The form is invalid.", 400);
    }
    if (form.password !== form.confirm) return resetPage(request, reply, token, "The two passwords differ.", 400);
    try {
      await callService(ctx, request, resetPasswordOp, { token: form.token, password: form.password });
    } catch (err) {
      if (err instanceof AppError && err.code === "reset_link_invalid") {
        return sendPage(ctx, request, reply, {
          title: "Choose a new password",
          status: 401,
          error: "This link is unknown, used or expired (links last 30 minutes and work once).",
          body: html`<p><a href="/dashboard/forgot">Ask for a new link</a></p>`,
        });
      }
      throw err;
    }
    return redirectDone(reply, "/dashboard/sign-in", "password-reset");
  });
}
