import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (refunds → payments): starts the refund's transfer, merchant → consumer, at most
 * once per refund id however often it is asked (the refund id is the provider's idempotency
 * key), and answers the provider's transfer id. Only for a `completed` transaction (409
 * `transaction_not_settled`), never more than its amount, and never while another refund of
 * the same transaction holds it (409 `refund_exists`). Service principals only.
 */
export const startRefundTransferOp = defineOperation(
  "payments.startRefundTransfer",
  z.object({
    refund_id: z.string().regex(/^rfd_[0-9a-f]{32}$/),
    transaction_uuid: z.string().min(1).max(64),
    amount_cents: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
  z.object({ transfer_id: z.string() }),
);
