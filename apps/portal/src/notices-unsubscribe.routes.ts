import { ANONYMOUS, AppError, UnsubscribeToken, unsubscribeOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { callService, html, sendHtml, type Html, type WebContext } from "@payrail/web";

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Unsubscribe links of consumer notices (docs/decisions/0009-consumer-notices.md): no sign-in,
 * the signed token in the path is the consumer's proof. `GET` shows what the link stops and a
 * button; `POST` records the opt-out, whether from that button or from a mail client's RFC 8058
 * one-click (`List-Unsubscribe=One-Click`, which needs no page). A token Payrail did not sign is
 * a 400 page. The POST means the same whatever its body (RFC 8058 allows a urlencoded or a
 * multipart one, and the page's button sends an empty form): in this scope only, every body
 * up to 1 KiB is read and dropped (the API stays JSON-only).
 */
export async function noticesUnsubscribeRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 }, (_request, _body, done) => done(null, undefined));
  const hide = { schema: { hide: true } };
  type WithToken = { Params: { token: string } };
  app.get<WithToken>("/notices/unsubscribe/:token", hide, (request, reply) => answer(ctx, request, reply, false));
  app.post<WithToken>("/notices/unsubscribe/:token", hide, (request, reply) => answer(ctx, request, reply, true));
}

async function answer(ctx: WebContext, request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply, confirm: boolean) {
  const token = UnsubscribeToken.safeParse(request.params.token);
  if (!token.success) return page(reply, 400, "This link is not valid", html`<p>This unsubscribe link is not valid. Use the link in the email as it came.</p>`);
  let result;
  try {
    result = await callService(ctx, request, unsubscribeOp, { token: token.data, confirm }, ANONYMOUS);
  } catch (err) {
    if (err instanceof AppError && err.code === "parameter_invalid") {
      return page(reply, 400, "This link is not valid", html`<p>This unsubscribe link is not valid. Use the link in the email as it came.</p>`);
    }
    throw err;
  }
  const what = result.channel === "email" ? "emails" : "text messages";
  const still = html`<p>You will still be told what the law requires: copies of your payment authorizations, changes of amount before they are debited, failed payments, refunds and cancellations.</p>`;
  if (result.unsubscribed) {
    return page(reply, 200, "You are unsubscribed", html`<p>You will no longer receive receipts and payment reminders from <strong>${result.merchant_name}</strong> by ${what}.</p>${still}`);
  }
  return page(
    reply,
    200,
    "Unsubscribe",
    html`<p>Stop receipts and payment reminders from <strong>${result.merchant_name}</strong> by ${what}?</p>${still}
<form method="post"><button type="submit">Unsubscribe</button></form>`,
  );
}

function page(reply: FastifyReply, status: number, title: string, body: Html) {
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#111;background:#f6f7f9;margin:0;padding:24px}main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:24px}button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}</style>
</head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  return sendHtml(reply, status, { "content-security-policy": PAGE_CSP }, doc.value);
}
