import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * A refund payout's outcome as payments records it on the refunded transaction: what the
 * refunds service (the refund moves to `completed` or `failed`) and the checkout service
 * (`amount_refunded`, `refunded`) follow. The figures are the transaction's after the payout
 * counted, so a subscriber keeps the largest it saw and needs no sum of its own.
 */
export const RefundPayoutSnapshot = z.object({
  refund_id: z.string().regex(/^rfd_[0-9a-f]{32}$/),
  /** The refund's payout attempt this outcome is about (a failed payout may be retried). */
  attempt: z.number().int().positive(),
  /** The provider's transfer (the refund's `refund_transaction_id`); null when the provider refused it outright. */
  transfer_id: z.string().min(1).max(255).nullable(),
  status: z.enum(["completed", "failed"]),
  failure_code: z.string().max(64).optional(),
  failure_reason: z.string().max(500).optional(),
  transaction_uuid: z.string().regex(/^sc-[0-9a-f]{32}$/),
  /** The refunded transaction's checkout (`chk_…`). */
  checkout_id: z.string().regex(/^chk_[0-9a-f]{32}$/),
  /**
   * Cents this payout sends back: its refund's amount. Optional only for events published before
   * it was added; subscribers check it when present.
   */
  amount_cents: z.number().int().positive().optional(),
  /** Cents the transaction's completed payouts sent back in all, this one included. */
  amount_refunded_cents: z.number().int().nonnegative(),
  /** Whether that is the transaction's whole amount. */
  fully_refunded: z.boolean(),
});
export type RefundPayoutSnapshot = z.infer<typeof RefundPayoutSnapshot>;

/** Internal (payments → refunds and checkout, never shown to merchants): a refund payout is final. */
export const RefundPayoutSettledEvent = defineEvent("refund_payout.settled", "transaction", RefundPayoutSnapshot);
export type RefundPayoutSettledEvent = z.infer<typeof RefundPayoutSettledEvent>;
