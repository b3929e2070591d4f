import { AppError, logoutOp, sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import { callService, csrfToken, type WebContext } from "@payrail/web";
import { formField, sendPage } from "./portal-reply.ts";
import { PORTAL_PATH, endSession, portalUser, sessionToken, startSession } from "./portal-session.ts";
import { codeForm, phoneForm } from "./sign-in.view.ts";

const hide = { schema: { hide: true } };

/** The errors a consumer fixes on the form itself (a wrong number or code, a limit): shown there, with their status. */
function formError(err: unknown): AppError {
  if (err instanceof AppError && err.status < 500 && err.status !== 403) return err;
  throw err;
}

/**
 * Sign-in with phone and one-time code (identity's Send Code and Verify Code, with their
 * limits), and sign-out (Logout: the token is revoked, not just forgotten by the browser).
 * Every form carries a CSRF token, sign-in's too (so no other site can sign a browser into
 * an account of its choosing).
 */
export async function signInRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const sandbox = ctx.sandbox;
  const signIn = (reply: FastifyReply, body: ReturnType<typeof phoneForm>, status = 200) => sendPage(reply, { title: "Sign in", body, sandbox }, status);

  app.get(PORTAL_PATH, hide, async (request, reply) => {
    if (sessionToken(request) !== null) return reply.redirect(`${PORTAL_PATH}/payments`, 303);
    const signedOut = (request.query as Record<string, unknown>)["signed_out"] !== undefined;
    return signIn(reply, phoneForm(csrfToken(reply), "", undefined, signedOut ? "You are signed out." : undefined));
  });

  app.post(`${PORTAL_PATH}/sign-in/code`, { ...hide, preHandler: app.csrfProtection }, async (request, reply) => {
    const phone = formField(request.body, "phone").slice(0, 64);
    const csrf = csrfToken(reply);
    if (phone === "") return signIn(reply, phoneForm(csrf, "", "Enter your mobile phone number."), 400);
    try {
      await callService(ctx, request, sendCodeOp, { phone, client_address: request.ip });
    } catch (err) {
      const error = formError(err);
      return signIn(reply, phoneForm(csrf, phone, error.message), error.status);
    }
    return sendPage(reply, { title: "Enter your code", body: codeForm(csrf, phone), sandbox });
  });

  app.post(`${PORTAL_PATH}/sign-in`, { ...hide, preHandler: app.csrfProtection }, async (request, reply) => {
    const phone = formField(request.body, "phone").slice(0, 64);
    const code = formField(request.body, "code").slice(0, 16);
    if (phone === "") return reply.redirect(PORTAL_PATH, 303);
    const csrf = csrfToken(reply);
    if (code === "") return sendPage(reply, { title: "Enter your code", body: codeForm(csrf, phone, "Enter the six-digit code."), sandbox }, 400);
    try {
      const verified = await callService(ctx, request, verifyCodeOp, { phone, verification_code: code });
      startSession(reply, verified.data.auth_token);
    } catch (err) {
      const error = formError(err);
      return sendPage(reply, { title: "Enter your code", body: codeForm(csrf, phone, error.message), sandbox }, error.status);
    }
    return reply.redirect(`${PORTAL_PATH}/payments`, 303);
  });

  app.post(`${PORTAL_PATH}/sign-out`, { ...hide, preValidation: portalUser(ctx), preHandler: app.csrfProtection }, async (request, reply) => {
    await callService(ctx, request, logoutOp, {});
    endSession(reply);
    return reply.redirect(`${PORTAL_PATH}?signed_out=1`, 303);
  });
}
