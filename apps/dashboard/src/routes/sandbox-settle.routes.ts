import { AppError, getMerchantRefundOp, simulateRefundTransferOp, simulateTransferOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser, type DashboardUser } from "../dashboard-session.ts";
import { csrfField, redirectDone } from "../layout.ts";

/** The sandbox's Settle: a form posting to `action`, drawn only in the sandbox, for users who may change things. */
export function settleButton(reply: FastifyReply, action: string): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(reply)}<button class="secondary" type="submit">Settle (sandbox)</button></form>`;
}

/** A viewer's forged form is refused here whatever the record's state (the services refuse it too). */
function requireWriter(user: DashboardUser): void {
  if (!canChange(user)) throw new AppError("permission_denied", "a viewer may read but not change anything");
}

/**
 * Sandbox only (registered only with sandbox providers, so a live dashboard answers 404): the
 * bank's answer a test merchant would otherwise wait for, as `POST
 * /api/sandbox/transfers/{id}/simulate` with `completed` gives it: a processing payment's transfer
 * settles through payments' webhook path, a processing refund's payout through refunds'. The same
 * operations as that route, so the same rules: the merchant's own records only, viewers refused.
 */
export async function sandboxSettleRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.post<{ Params: { uuid: string } }>("/dashboard/transactions/:uuid/settle", async (request, reply) => {
    requireWriter(requireDashboardUser(request));
    const record = await callService(ctx, request, simulateTransferOp, { transaction_uuid: request.params.uuid, status: "completed" });
    return redirectDone(reply, `/dashboard/checkouts/${encodeURIComponent(record.checkout)}`, "payment-settled");
  });

  app.post<{ Params: { id: string } }>("/dashboard/refunds/:id/settle", async (request, reply) => {
    requireWriter(requireDashboardUser(request));
    const refund = await callService(ctx, request, getMerchantRefundOp, { id: request.params.id });
    if (refund.status !== "processing" || !refund.refund_transaction_id) {
      throw new AppError("invalid_refund_transition", `refund ${refund.id} is ${refund.status}: only a refund whose payout is processing settles`);
    }
    await callService(ctx, request, simulateRefundTransferOp, { refund_transaction_id: refund.refund_transaction_id, status: "completed" });
    return redirectDone(reply, "/dashboard/refunds", "refund-settled");
  });
}
