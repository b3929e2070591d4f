import type { CheckContext, Divergence } from "./divergence.ts";
import { everyDocument } from "./divergence.ts";

type Transaction = {
  _id: string;
  transaction_status: string;
  checkoutRef: string;
  merchantId: string;
  updated_at: string;
  amountCents: number;
  amountRefundedCents?: number;
  refundPayouts?: Record<string, string>;
};
type Attempt = { _id: string; transactionUuid: string; transferId: string | null; completed: boolean; updatedAt: string; leaseUntil: string | null };
type Checkout = { _id: string; status: string; transfer: { transaction_uuid: string; status: string } | null; refundedCents?: Record<string, number>; updatedAt: string };
type Payout = { _id: string; refundId: string; transactionUuid: string; status: string; amountCents: number; transferId: string | null; updatedAt: string };
type Notice = { _id: string; transferId: string; receivedAt: string };

/** The checkout status a first charge's record makes (`refunded` also follows `completed`). */
const CHECKOUT_OF: Record<string, readonly string[]> = {
  pending: ["transfer_pending"],
  completed: ["paid", "refunded"],
  failed: ["failed"],
  cancelled: ["failed"],
  returned: ["returned"],
};

/**
 * Payments against the checkout: every first charge's record (the one its transfer attempt
 * names) is followed by its checkout's status and transfer; every attempt that got a transfer
 * has its record; every completed refund payout is counted in its transaction's
 * amount_refunded, and that sum is what the checkout shows; no provider notice waits for a
 * record that never came.
 */
export async function checkPayments(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const checkouts = ctx.store.collection<Checkout>("checkouts");
  const transactions = ctx.store.collection<Transaction>("transactions");
  const settled = (at: string) => at < ctx.settledBefore;

  for await (const a of everyDocument(ctx.store.collection<Attempt>("transfer_attempts"))) {
    if (a.transferId && !a.completed && settled(a.updatedAt) && (!a.leaseUntil || a.leaseUntil < ctx.settledBefore)) {
      report({ kind: "transfer_without_record", id: a._id, detail: `transfer ${a.transferId} was started but its transaction record was never written (payrail reconcile finishes it)` });
    }
    if (!a.transferId) continue;
    const record = await transactions.findOne({ _id: a.transactionUuid });
    if (!record) continue;
    const checkout = await checkouts.findOne({ _id: a._id });
    if (!checkout) {
      report({ kind: "transaction_without_checkout", id: record._id, detail: `checkout ${a._id} does not exist` });
      continue;
    }
    if (!settled(record.updated_at)) continue;
    const expected = CHECKOUT_OF[record.transaction_status] ?? [];
    if (checkout.transfer?.transaction_uuid !== record._id || !expected.includes(checkout.status)) {
      report({
        kind: "checkout_not_following_transaction",
        id: checkout._id,
        detail: `transaction ${record._id} is ${record.transaction_status}, the checkout is ${checkout.status}${checkout.transfer ? ` (transfer ${checkout.transfer.transaction_uuid})` : " with no transfer"}`,
      });
    }
  }

  const completedCents = new Map<string, number>();
  for await (const p of everyDocument(ctx.store.collection<Payout>("refund_transfers"))) {
    if (p.status === "completed") completedCents.set(p.transactionUuid, (completedCents.get(p.transactionUuid) ?? 0) + p.amountCents);
  }
  for await (const t of everyDocument(transactions)) {
    const paid = completedCents.get(t._id) ?? 0;
    if ((t.amountRefundedCents ?? 0) !== paid) {
      report({ kind: "amount_refunded_mismatch", id: t._id, detail: `amount_refunded counts ${t.amountRefundedCents ?? 0} cents, completed payouts sum to ${paid}` });
    }
    if ((t.amountRefundedCents ?? 0) > t.amountCents) report({ kind: "refunded_more_than_paid", id: t._id, detail: `${t.amountRefundedCents} cents refunded of ${t.amountCents}` });
    if (paid === 0 || !settled(t.updated_at)) continue;
    const checkout = await checkouts.findOne({ _id: t.checkoutRef });
    const shown = checkout?.refundedCents?.[t._id] ?? 0;
    if (shown !== paid) report({ kind: "checkout_refunded_mismatch", id: t.checkoutRef, detail: `the checkout shows ${shown} cents refunded of ${t._id}, its payouts ${paid}` });
  }

  for await (const n of everyDocument(ctx.store.collection<Notice>("transfer_notices"))) {
    if (settled(n.receivedAt)) report({ kind: "notice_without_record", id: n._id, detail: `a provider notice about transfer ${n.transferId} has waited since ${n.receivedAt} for its record` });
  }
}
