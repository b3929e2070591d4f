import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/** A payout's transfer as payments records it, once final: what the ledger applies to the payout. */
export const PayoutTransferSnapshot = z.object({
  payout_id: z.string().regex(/^po_[0-9a-f]{32}$/),
  /** The provider's transfer; null when the provider refused it outright. */
  transfer_id: z.string().min(1).max(255).nullable(),
  status: z.enum(["completed", "failed"]),
  failure_code: z.string().max(64).optional(),
  failure_reason: z.string().max(500).optional(),
  amount_cents: z.number().int().positive(),
});
export type PayoutTransferSnapshot = z.infer<typeof PayoutTransferSnapshot>;

/** Internal (payments → ledger, never shown to merchants): a payout's transfer is final. */
export const PayoutTransferSettledEvent = defineEvent("payout_transfer.settled", "payout_transfer", PayoutTransferSnapshot);
export type PayoutTransferSettledEvent = z.infer<typeof PayoutTransferSettledEvent>;
