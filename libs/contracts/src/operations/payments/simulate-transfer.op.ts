import { z } from "zod";
import { SimulateTransferBody, TransactionRecord } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only: moves a pending sandbox transfer to completed or failed, as Dwolla's sandbox
 * simulations do, then through the same status path as a provider webhook. Answers the
 * updated transaction record. A refund's transfer (docs/api-notes.md, The sandbox: "the same way") goes through
 * the refunds service instead (`refunds.simulateRefundTransfer`): the gateway routes by the id.
 */
export const simulateTransferOp = defineOperation(
  "payments.simulateTransfer",
  SimulateTransferBody.extend({ transaction_uuid: z.string().min(1).max(64) }),
  TransactionRecord,
);
