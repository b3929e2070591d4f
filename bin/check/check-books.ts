import type { CheckContext, Divergence } from "./divergence.ts";
import { everyDocument } from "./divergence.ts";

type Row = { _id: string; merchantId: string; type: string; amountCents: number; source: string; payoutId: string | null; counted: boolean };
type Balance = { _id: string; totalCents: number; lastBtx: string | null };
type Payout = { _id: string; merchantId: string; stage: string; amountCents: number; transferId: string | null; updatedAt: string };
type PayoutTransfer = { _id: string; status: string; amountCents: number; transferId: string | null; updatedAt: string };

/** The payout stage a payout transfer's status makes. */
const STAGE_OF: Record<string, string> = { pending: "created", completed: "paid", failed: "failed", cancelled: "failed" };

/**
 * The merchant's books (docs/decisions/0050-payouts.md): each merchant's balance is the sum of its
 * balance transactions; each payout's amount is the sum of the rows it contains, its own `payout`
 * row takes that amount, and a failed one's comes back; each payout follows its transfer as
 * payments recorded the provider's word (same amount, same outcome).
 */
export async function checkBooks(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const settled = (at: string) => at < ctx.settledBefore;
  const balances = new Map<string, Balance>();
  for await (const b of everyDocument(ctx.store.collection<Balance>("balances"))) balances.set(b._id, b);
  const counted = new Map<string, number>();
  const inPayout = new Map<string, number>();
  const ownRows = new Map<string, number[]>();
  for await (const r of everyDocument(ctx.store.collection<Row>("balance_transactions"))) {
    if (r.counted || balances.get(r.merchantId)?.lastBtx === r._id) counted.set(r.merchantId, (counted.get(r.merchantId) ?? 0) + r.amountCents);
    // A payout's own rows: its `−amount`, and once failed its `+amount` (which the next payout contains).
    if (r.type === "payout" && r.source.startsWith("po_")) ownRows.set(r.source, [...(ownRows.get(r.source) ?? []), r.amountCents]);
    if (r.payoutId && !(r.type === "payout" && r.source === r.payoutId)) inPayout.set(r.payoutId, (inPayout.get(r.payoutId) ?? 0) + r.amountCents);
  }
  for (const [merchantId, b] of balances) {
    const sum = counted.get(merchantId) ?? 0;
    if (sum !== b.totalCents) report({ kind: "balance_not_sum_of_rows", id: merchantId, detail: `the balance counts ${b.totalCents} cents, its balance transactions sum to ${sum}` });
  }
  const transfers = ctx.store.collection<PayoutTransfer>("payout_transfers");
  for await (const p of everyDocument(ctx.store.collection<Payout>("payouts"))) {
    if (p.stage === "open") {
      if (settled(p.updatedAt)) report({ kind: "payout_left_open", id: p._id, detail: "a payout run stopped while gathering its rows (the next run carries it on)" });
      continue;
    }
    const gathered = inPayout.get(p._id) ?? 0;
    if (gathered !== p.amountCents) report({ kind: "payout_not_sum_of_rows", id: p._id, detail: `the payout is ${p.amountCents} cents, the rows it contains sum to ${gathered}` });
    const expected = p.stage === "failed" ? [-p.amountCents, p.amountCents] : [-p.amountCents];
    const own = [...(ownRows.get(p._id) ?? [])].sort((a, b) => a - b);
    if (settled(p.updatedAt) && own.join() !== expected.join()) {
      report({ kind: "payout_rows_mismatch", id: p._id, detail: `a ${p.stage} payout of ${p.amountCents} cents should have payout rows ${expected.join(", ")}, it has ${own.join(", ") || "none"}` });
    }
    const transfer = await transfers.findOne({ _id: p._id });
    if (!transfer) {
      if (settled(p.updatedAt)) report({ kind: "payout_without_transfer", id: p._id, detail: "payments has no transfer for this payout (the next payout run asks again)" });
      continue;
    }
    if (transfer.amountCents !== p.amountCents) report({ kind: "payout_transfer_amount_mismatch", id: p._id, detail: `the payout is ${p.amountCents} cents, its transfer ${transfer.amountCents}` });
    if (settled(transfer.updatedAt) && STAGE_OF[transfer.status] !== p.stage) {
      report({ kind: "payout_not_following_transfer", id: p._id, detail: `its transfer is ${transfer.status}, the payout is ${p.stage}` });
    }
  }
}
