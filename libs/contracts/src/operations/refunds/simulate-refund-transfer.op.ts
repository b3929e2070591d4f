import { z } from "zod";
import { SimulateTransferBody } from "../../http/payments.schema.ts";
import { RefundRecord } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only (the merchant's `POST /api/sandbox/transfers/{refund_transaction_id}/simulate`):
 * completes or fails a refund's pending payout. The refunds service asks payments to move the
 * transfer (`payments.simulateRefundPayout`), applies the outcome to the refund as it would the
 * refund_payout.settled event, and answers the updated refund record.
 */
export const simulateRefundTransferOp = defineOperation(
  "refunds.simulateRefundTransfer",
  SimulateTransferBody.extend({ refund_transaction_id: z.string().min(1).max(255) }),
  RefundRecord,
);
