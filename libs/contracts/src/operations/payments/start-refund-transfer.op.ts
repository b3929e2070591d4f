import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (refunds → payments): starts payout `attempt` of the refund, merchant → consumer, at
 * most once however often it is asked (the payout's idempotency key is the refund id for the
 * first attempt, `<refund id>-<attempt>` after), and answers the provider's transfer id. A
 * provider that refuses the transfer for good answers `failed` with its code and reason, and
 * the next attempt may start; a later attempt starts only once the one before failed, so a
 * refund never has two live payouts. Only for a `completed` transaction (409
 * `transaction_not_settled`), and the live and completed payouts of a transaction never exceed
 * its amount (409 `amount_exceeds_refundable`). Service principals only.
 */
export const startRefundTransferOp = defineOperation(
  "payments.startRefundTransfer",
  z.object({
    refund_id: z.string().regex(/^rfd_[0-9a-f]{32}$/),
    attempt: z.number().int().positive().max(1000),
    transaction_uuid: z.string().min(1).max(64),
    amount_cents: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
  z.discriminatedUnion("status", [
    z.object({ status: z.literal("pending"), transfer_id: z.string() }),
    z.object({ status: z.literal("failed"), failure_code: z.string(), failure_reason: z.string() }),
  ]),
);
