import type { CheckContext, Divergence } from "./divergence.ts";
import { everyDocument } from "./divergence.ts";

type Refund = { _id: string; status: string; attempt: number; amountCents: number; transactionUuid: string; updatedAt: string; overReturnedAt?: string | null };
type Transaction = { _id: string; transaction_status: string; returned_at?: string; updated_at: string };
type Payout = { _id: string; status: string; amountCents: number; updatedAt: string };

/** The id of a refund's payout `attempt` (as payments names it). */
const payoutId = (refundId: string, attempt: number) => (attempt === 1 ? refundId : `${refundId}-${attempt}`);

/**
 * Refunds against payments' payouts: a completed refund has a completed payout of its amount;
 * a refund still `processing` has no payout that settled a while ago (the event that moves it
 * was lost); a refund never completes without a payout. A completed refund of a payment the bank
 * returned is marked over-returned (else the event that marks it was lost), and each marked one
 * is listed for the merchant's attention: the consumer got that money twice.
 */
export async function checkRefunds(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const payouts = ctx.store.collection<Payout>("refund_transfers");
  const transactions = ctx.store.collection<Transaction>("transactions");
  for await (const r of everyDocument(ctx.store.collection<Refund>("refunds"))) {
    if (r.status !== "completed" && r.status !== "processing") continue;
    const payout = await payouts.findOne({ _id: payoutId(r._id, r.attempt) });
    if (r.status === "completed") {
      if (payout?.status !== "completed") report({ kind: "refund_completed_without_payout", id: r._id, detail: `refund completed, its payout is ${payout?.status ?? "missing"}` });
      else if (payout.amountCents !== r.amountCents) report({ kind: "refund_payout_amount_mismatch", id: r._id, detail: `refund of ${r.amountCents} cents paid out ${payout.amountCents}` });
      if (r.overReturnedAt) {
        report({ kind: "refund_over_returned", id: r._id, detail: `${r.amountCents} cents paid back, and payment ${r.transactionUuid} was returned by the bank too (${r.overReturnedAt}): the consumer got it twice`, attention: true });
      } else {
        const t = await transactions.findOne({ _id: r.transactionUuid });
        if (t?.transaction_status === "returned" && t.updated_at < ctx.settledBefore && r.updatedAt < ctx.settledBefore) {
          report({ kind: "refund_over_return_not_marked", id: r._id, detail: `payment ${r.transactionUuid} was returned at ${t.returned_at ?? t.updated_at}, the completed refund is not marked over-returned` });
        }
      }
    } else if (payout && payout.status !== "pending" && payout.updatedAt < ctx.settledBefore) {
      report({ kind: "refund_not_following_payout", id: r._id, detail: `payout ${payout._id} is ${payout.status} since ${payout.updatedAt}, the refund is still processing` });
    }
  }
}
