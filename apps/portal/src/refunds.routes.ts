import { AppError, centsToDecimal, getTransactionForRefundOp, listRefundsOp, requestRefundOp, toCents } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { callService, csrfToken, html, type WebContext } from "@payrail/web";
import { transactionUuidParam } from "./portal-params.ts";
import { formField, sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";
import { refundForm, refundsTable, type RefundFormFacts } from "./refunds.view.ts";

/** Refunds that still count against the payment (docs/api-notes.md, Refunds): all but the refused and the failed. */
const SPENT = new Set(["pending", "approved", "processing", "completed"]);

/**
 * What the form needs: the payment as refunds sees it (the consumer's own, else 404) and what
 * is left of it after the consumer's refund requests that still count. Refunds checks the same
 * again when the request is made, in one conditional write; this only sets the form's default.
 */
async function refundFacts(ctx: WebContext, request: FastifyRequest, transactionUuid: string): Promise<RefundFormFacts & { settled: boolean }> {
  const [transaction, refunds] = await Promise.all([
    callService(ctx, request, getTransactionForRefundOp, { transaction_uuid: transactionUuid }, request.principal),
    callService(ctx, request, listRefundsOp, { limit: 100 }, request.principal),
  ]);
  const spent = refunds.filter((r) => r.transaction_uuid === transactionUuid && SPENT.has(r.status)).reduce((sum, r) => sum + (toCents(r.amount) ?? 0), 0);
  return {
    transactionUuid,
    amount: centsToDecimal(transaction.amount_cents),
    refundable: centsToDecimal(Math.max(0, transaction.amount_cents - spent)),
    currency: transaction.currency,
    settled: transaction.transaction_status === "completed",
  };
}

/** Refund requests: the list with their status, and the request form of one settled payment. */
export async function refundsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const auth = { schema: { hide: true }, preValidation: portalUser(ctx) };
  const formPage = (request: FastifyRequest, reply: FastifyReply, body: ReturnType<typeof html>, status = 200) =>
    sendPage(reply, { title: "Request a refund", body, sandbox: ctx.sandbox, session: sessionOf(request, reply, "payments") }, status);

  app.get(`${PORTAL_PATH}/refunds`, auth, async (request, reply) => {
    const refunds = await callService(ctx, request, listRefundsOp, { limit: 100 });
    const requested = (request.query as Record<string, unknown>)["requested"] !== undefined;
    const notice = requested ? "Refund requested. The merchant will approve or decline it; its status shows here." : undefined;
    return sendPage(reply, { title: "Refunds", body: refundsTable(refunds, notice), sandbox: ctx.sandbox, session: sessionOf(request, reply, "refunds") });
  });

  app.get(`${PORTAL_PATH}/payments/:transaction_uuid/refund`, auth, async (request, reply) => {
    const facts = await refundFacts(ctx, request, transactionUuidParam(request.params));
    if (!facts.settled || facts.refundable === "0.00") {
      const why = facts.settled ? "This payment has been refunded in full already." : "Only a payment that has settled can be refunded.";
      return formPage(request, reply, html`<p>${why}</p><p><a href="${PORTAL_PATH}/payments">Back to payments</a></p>`, 409);
    }
    return formPage(request, reply, refundForm(csrfToken(reply), facts));
  });

  app.post(`${PORTAL_PATH}/payments/:transaction_uuid/refund`, { ...auth, preHandler: app.csrfProtection }, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    const amount = formField(request.body, "amount").replace(/^\$/, "");
    const reason = formField(request.body, "reason");
    try {
      if (toCents(amount) === null || toCents(amount) === 0) {
        throw new AppError("amount_invalid", "Enter an amount greater than 0, like 12.50.", { param: "amount" });
      }
      await callService(ctx, request, requestRefundOp, { transaction_uuid: transactionUuid, amount, ...(reason ? { reason } : {}) });
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400 && err.status !== 409) throw err;
      const facts = await refundFacts(ctx, request, transactionUuid);
      return formPage(request, reply, refundForm(csrfToken(reply), facts, { amount, reason }, err.message), err.status);
    }
    return reply.redirect(`${PORTAL_PATH}/refunds?requested=1`, 303);
  });
}
