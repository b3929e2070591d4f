import { z } from "zod";
import { TransactionStatus } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** What refunds needs to know of the transaction a refund is for (money in integer cents). */
export const RefundableTransaction = z.object({
  transaction_uuid: z.string(),
  /** The checkout's `chk_` id. */
  checkout_ref: z.string(),
  /** The checkout's number (`checkout_id` of transaction and refund records). */
  checkout_number: z.number().int(),
  merchant_id: z.string(),
  user_id: z.string(),
  amount_cents: z.number().int().positive(),
  currency: z.string(),
  transaction_status: TransactionStatus,
});
export type RefundableTransaction = z.infer<typeof RefundableTransaction>;

/**
 * Internal (refunds → payments): one transaction record. To a user principal only their own
 * record (anyone else's is 404 `transaction_not_found`, like an unknown one); to a service
 * principal any record. Merchants and anonymous callers get 403.
 */
export const getTransactionForRefundOp = defineOperation(
  "payments.getTransactionForRefund",
  z.object({ transaction_uuid: z.string().min(1).max(64) }),
  RefundableTransaction,
  { reads: true },
);
