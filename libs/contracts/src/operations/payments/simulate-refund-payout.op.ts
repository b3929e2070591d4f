import { z } from "zod";
import { RefundPayoutSnapshot } from "../../events/refund-payout-settled.event.ts";
import { SimulateTransferBody } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only, asked by the refunds service for merchant `merchant_id` (whose call refunds
 * serves; only refunds' broker users may ask, see `SERVICE_CALLS`): moves a refund payout's
 * pending sandbox transfer (named by its transfer id, the refund's `refund_transaction_id`) to
 * completed or failed, then settles it through the same path as a provider webhook. Answers the
 * payout's outcome, which the refunds service applies to the refund.
 */
export const simulateRefundPayoutOp = defineOperation(
  "payments.simulateRefundPayout",
  SimulateTransferBody.extend({ merchant_id: z.string().min(1).max(255), transfer_id: z.string().min(1).max(255) }),
  RefundPayoutSnapshot,
);
