import { z } from "zod";
import { AuditOrigin } from "../../events/audit-entry.event.ts";
import { RefundPayoutSnapshot } from "../../events/refund-payout-settled.event.ts";
import { SimulateTransferBody } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only, asked by the refunds service for merchant `merchant_id` (whose call refunds
 * serves; only refunds' broker users may ask, see `SERVICE_CALLS`): moves a refund payout's
 * pending sandbox transfer (named by its transfer id, the refund's `refund_transaction_id`) to
 * completed or failed, then settles it through the same path as a provider webhook. Answers the
 * payout's outcome, which the refunds service applies to the refund.
 *
 * `audit` is the merchant's actor and client address as refunds resolved them from the request
 * it serves: payments writes the `refund_payout.simulated` entry from it in the move's own
 * write. Payments believes it because only refunds may send this operation
 * (docs/decisions/0054-audit-log.md); without it the move records nothing.
 */
export const simulateRefundPayoutOp = defineOperation(
  "payments.simulateRefundPayout",
  SimulateTransferBody.extend({
    merchant_id: z.string().min(1).max(255),
    transfer_id: z.string().min(1).max(255),
    audit: AuditOrigin.optional(),
  }),
  RefundPayoutSnapshot,
);
