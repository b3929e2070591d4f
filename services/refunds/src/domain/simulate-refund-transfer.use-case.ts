import { auditOrigin } from "@payrail/runtime";
import type { MerchantPrincipal, RefundRecord } from "@payrail/contracts";
import { applyPayoutOutcome } from "./apply-payout-outcome.use-case.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { toRefundRecord } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * Sandbox: the merchant completes or fails a refund's payout, named by its transfer id. Payments
 * moves the transfer (and checks that it is this merchant's); its answer is the payout's outcome,
 * applied here at once (the refund_payout.settled event, arriving later, then changes nothing),
 * so the merchant gets the refund as it now is. Payments writes the merchant's audit entry in
 * the move's own write, from the actor and address refunds resolved here: refunds asks on its own
 * account, which names neither (docs/decisions/0054-audit-log.md).
 */
export async function simulateRefundTransfer(
  deps: RefundsDeps,
  meta: RequestMeta,
  merchant: MerchantPrincipal,
  input: { refund_transaction_id: string; status: "completed" | "failed"; failure_code?: string | undefined },
): Promise<RefundRecord> {
  const audit = auditOrigin(meta);
  const outcome = await deps.payments.simulateRefundPayout(meta, {
    merchant_id: merchant.merchantId,
    transfer_id: input.refund_transaction_id,
    status: input.status,
    ...(input.failure_code ? { failure_code: input.failure_code } : {}),
    ...(audit ? { audit } : {}),
  });
  return toRefundRecord(await applyPayoutOutcome(deps, meta, outcome));
}
