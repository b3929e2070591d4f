import { z } from "zod";
import { SimulateTransferBody, TransactionRecord } from "../../http/payments.schema.ts";
import { RefundRecord } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only: moves a pending sandbox transfer to completed or failed, as Dwolla's sandbox
 * simulations do, then through the same status path as a provider webhook. Answers the
 * updated transaction record. `transaction_uuid` may also be a refund's
 * `refund_transaction_id` (API.md §8: "the same way"); then the answer is the updated refund
 * record: the response is the union of the two record shapes.
 */
export const simulateTransferOp = defineOperation(
  "payments.simulateTransfer",
  SimulateTransferBody.extend({ transaction_uuid: z.string().min(1).max(64) }),
  z.union([TransactionRecord, RefundRecord]),
);
