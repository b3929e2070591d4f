import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/** A payout's transfer as payments records it, once final: what the ledger applies to the payout. */
export const PayoutTransferSnapshot = z.object({
  payout_id: z.string().regex(/^po_[0-9a-f]{32}$/).describe("The payout (`po_…`)"),
  transfer_id: z.string().min(1).max(255).nullable().describe("The provider's transfer; null when the provider refused it outright"),
  status: z.enum(["completed", "failed"]).describe("`completed` (the money is at the merchant's bank) or `failed`"),
  failure_code: z.string().max(64).optional().describe("Why it failed: an ACH return code or the provider's refusal"),
  failure_reason: z.string().max(500).optional().describe("The failure in words"),
  amount_cents: z.number().int().positive().describe("The payout's amount in cents"),
});
export type PayoutTransferSnapshot = z.infer<typeof PayoutTransferSnapshot>;

/** Internal (payments → ledger, never shown to merchants): a payout's transfer is final. */
export const PayoutTransferSettledEvent = defineEvent("payout_transfer.settled", "payout_transfer", PayoutTransferSnapshot);
export type PayoutTransferSettledEvent = z.infer<typeof PayoutTransferSettledEvent>;
