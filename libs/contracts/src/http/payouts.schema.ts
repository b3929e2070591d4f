import { z } from "zod";
import { BalanceTransaction } from "./books.schema.ts";

/**
 * Payouts (docs/decisions/0050-payouts.md): the merchant's available balance sent to its bank,
 * one payout per merchant and UTC day at most. Integer cents inside, decimal strings here.
 */
export const PayoutId = z.string().regex(/^po_[0-9a-f]{32}$/, "must be po_ and 32 lowercase hex");

export const PayoutStatus = z.enum(["pending", "paid", "failed"]);
export type PayoutStatus = z.infer<typeof PayoutStatus>;

export const Payout = z.object({
  id: PayoutId.describe("The payout (`po_…`); also the transfer provider's idempotency key of its transfer"),
  amount: z.string().regex(/^(0|[1-9]\d*)\.\d{2}$/).describe("What goes to the merchant's bank: the sum of the balance transactions it contains (decimal)"),
  currency: z.string().describe("Three-letter ISO currency code, lower case (`usd`)"),
  status: PayoutStatus.describe("`pending` until the transfer provider settles it, then `paid`, or `failed` (its amount is back in the balance)"),
  day: z.string().describe("The UTC day of the payout run that made it (YYYY-MM-DD): a merchant gets at most one payout a day"),
  transfer_id: z.string().nullable().describe("The transfer provider's transfer, once it answered"),
  failure_code: z.string().nullable().describe("Why it failed (an ACH return code, or the provider's refusal), else null"),
  failure_reason: z.string().nullable().describe("The failure in words, else null"),
  created_at: z.string().describe("When the payout was made (ISO 8601 UTC); it contains the balance transactions available then"),
  updated_at: z.string().describe("Its last change (ISO 8601 UTC)"),
});
export type Payout = z.infer<typeof Payout>;

export const PayoutListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("At most this many (1–100, default 20)"),
  starting_after: PayoutId.optional().describe("The last payout of the previous page: the page after it"),
});
export type PayoutListQuery = z.infer<typeof PayoutListQuery>;

export const PayoutListResponse = z.object({
  data: z.array(Payout).describe("The payouts, newest first"),
  has_more: z.boolean().describe("Whether more follow (ask again with `starting_after`)"),
});
export type PayoutListResponse = z.infer<typeof PayoutListResponse>;

export const PayoutParams = z.object({ id: PayoutId.describe("The payout (`po_…`)") });

/** The reconciliation report: the payout and the balance transactions it contains. */
export const PayoutDetail = Payout.extend({
  balance_transactions: z
    .object({
      data: z.array(BalanceTransaction).describe("Its balance transactions, newest first: the movements it pays out and its own `payout` row"),
      has_more: z.boolean().describe("Whether more follow: page on with `GET /api/merchants/balance_transactions?payout_id=`"),
    })
    .describe("The reconciliation report: what the payout's amount is made of"),
});
export type PayoutDetail = z.infer<typeof PayoutDetail>;

export const RunPayoutsBody = z.object({}).describe("No fields: the run is for the calling merchant");

export const RunPayoutsResponse = z.object({
  payout: Payout.nullable().describe("Today's payout (made now, or earlier today), or null when the available balance is not above zero"),
});
export type RunPayoutsResponse = z.infer<typeof RunPayoutsResponse>;
