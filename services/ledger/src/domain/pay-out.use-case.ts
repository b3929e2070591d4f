import { AppError } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { balanceTransactionId, type BalanceTransactionDoc } from "./balance-transaction.entity.ts";
import { DEFAULT_CURRENCY } from "./books-entry.ts";
import type { PayoutDeps } from "./ledger.deps.ts";
import { payoutEvent } from "./payout-events.ts";
import { payoutIdFor, type PayoutDoc } from "./payout.entity.ts";
import { bookRow } from "./record-entry.use-case.ts";
import { settlePayout } from "./settle-payout.use-case.ts";

/** Rows read per page while a payout gathers them. */
const PAGE = 500;

/**
 * Today's payout of one merchant (docs/decisions/0050-payouts.md), made or carried on: returns
 * it, or null when there is nothing to pay (the available balance is not above zero: a negative
 * balance carries over to the next payout). The caller holds the merchant's payout lease, so one
 * call at a time works on it; every step is also safe to repeat, so a call that takes over from
 * one that died finishes its work without doubling any. `fence` is the lease's fencing token: a
 * call whose lease ran out while it stalled holds a smaller one than the call that took over, and
 * its late writes to the payout and its rows match nothing (it stops with payout_in_progress):
 * 1. the payout is inserted `open` under an id derived from merchant and day (one per day);
 * 2. it gathers the merchant's available counted rows in no payout (each row put in it by one
 *    conditional write), and its amount is their sum, fixed with payout.created (`created`);
 * 3. its `payout` row takes that amount from the balance;
 * 4. payments sends the money, its provider idempotency key being the payout id.
 * `audit` (a sandbox run by a merchant actor) puts the run's `payout.created` entry in step 2's write.
 */
export async function payOut(deps: PayoutDeps, merchantId: string, requestId: string, fence: number, audit?: AuditMeta): Promise<PayoutDoc | null> {
  const now = deps.now();
  const at = now.toISOString();
  const id = payoutIdFor(merchantId, at.slice(0, 10));
  let payout = await deps.payouts.find(id);
  if (!payout) {
    const total = await deps.balances.find(merchantId);
    if (!total) return null;
    const gathered = await gatherable(deps, merchantId, at, total.lastBtx);
    if (gathered.cents <= 0) return null;
    const doc: PayoutDoc = {
      _id: id,
      merchantId,
      day: at.slice(0, 10),
      stage: "open",
      amountCents: 0,
      currency: total.currency || DEFAULT_CURRENCY,
      cutoff: at,
      transferId: null,
      failureCode: null,
      failureReason: null,
      fence,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    await deps.payouts.insert(doc);
    payout = await deps.payouts.find(id);
    if (!payout) return null;
  }
  if (payout.stage === "open" && payout.fence !== fence) {
    payout = (await deps.payouts.claim(id, fence)) ?? (await deps.payouts.find(id));
    if (!payout) return null;
    if (payout.stage === "open" && payout.fence !== fence) throw lostLease();
  }
  if (payout.stage === "open") {
    payout = await fixAmount(deps, payout, fence, audit);
    if (!payout) return null;
  }
  await bookRow(deps, payoutRow(payout));
  if (payout.stage === "created" && !payout.transferId) payout = await sendPayout(deps, payout, requestId);
  return payout;
}

/** The rows a payout made now would gather (counted, available at `cutoff`, in no payout), and their sum. */
async function gatherable(deps: PayoutDeps, merchantId: string, cutoff: string, lastBtx: string | null): Promise<{ rows: BalanceTransactionDoc[]; cents: number }> {
  const rows: BalanceTransactionDoc[] = [];
  let after: BalanceTransactionDoc | undefined;
  for (;;) {
    const page = await deps.rows.unpaid(merchantId, cutoff, PAGE, after);
    // A row the total does not count yet (its event is being retried) waits for the next payout.
    rows.push(...page.filter((r) => r.counted || r._id === lastBtx));
    if (page.length < PAGE) break;
    after = page[page.length - 1];
  }
  return { rows, cents: rows.reduce((sum, r) => sum + r.amountCents, 0) };
}

/**
 * Step 2: puts the gatherable rows in the open payout, then fixes its amount as the sum of every
 * row in it (those a call before this one put there too) with payout.created, in one write. A
 * payout that gathered nothing above zero (the balance moved meanwhile) is taken apart again.
 */
async function fixAmount(deps: PayoutDeps, payout: PayoutDoc, fence: number, meta?: AuditMeta): Promise<PayoutDoc | null> {
  const total = await deps.balances.find(payout.merchantId);
  const gathered = await gatherable(deps, payout.merchantId, payout.cutoff, total?.lastBtx ?? null);
  for (const row of gathered.rows) await deps.rows.assign(row._id, payout._id, fence);
  const contained: BalanceTransactionDoc[] = [];
  for (const row of await rowsOf(deps, payout)) {
    if ((row.fence ?? 0) > fence) throw lostLease();
    // A row a run before this one put in is marked with this token first, so that run, resuming, cannot take it out of the sum.
    if (row.fence === fence || (await deps.rows.refence(row._id, payout._id, fence))) contained.push(row);
    else if (((await deps.rows.find(row._id))?.fence ?? 0) > fence) throw lostLease();
  }
  const cents = contained.reduce((sum, r) => sum + r.amountCents, 0);
  if (cents <= 0) {
    for (const row of contained) await deps.rows.unassign(row._id, payout._id, fence);
    await deps.payouts.removeOpen(payout._id, fence);
    // Still there: a run with a larger token took it over meanwhile, and it is that run's to finish.
    if (await deps.payouts.find(payout._id)) throw lostLease();
    return null;
  }
  const at = deps.now().toISOString();
  const change = { service: "ledger", merchantId: payout.merchantId, action: "payout.created", object: { type: "payout", id: payout._id }, at, livemode: deps.livemode } as const;
  const audit = meta ? auditEvents(meta, change) : [];
  const created = await deps.payouts.create(payout._id, fence, cents, at, (after) => payoutEvent(after, deps.livemode), audit);
  if (created) deps.events.written();
  const now = created ?? (await deps.payouts.find(payout._id));
  // Still open: a run with a larger token took it over (this one's lease ran out); its sum is that run's to fix.
  if (now?.stage === "open") throw lostLease();
  return now;
}

/** A payout run whose lease ran out while it worked, and whose payout another run took over. */
function lostLease(): AppError {
  return new AppError("payout_in_progress", "another payout run took this merchant's payout over; try again");
}

/** Every row a payout contains but its own `payout` rows. */
async function rowsOf(deps: PayoutDeps, payout: PayoutDoc): Promise<BalanceTransactionDoc[]> {
  const rows: BalanceTransactionDoc[] = [];
  let after: BalanceTransactionDoc | undefined;
  for (;;) {
    const page = await deps.rows.list({ merchantId: payout.merchantId, payoutId: payout._id }, PAGE, after);
    rows.push(...page.filter((r) => r.source !== payout._id));
    if (page.length < PAGE) return rows;
    after = page[page.length - 1];
  }
}

/** Step 3's row: the payout's amount leaving the balance, in the payout itself. */
function payoutRow(payout: PayoutDoc): BalanceTransactionDoc {
  return {
    _id: balanceTransactionId("payout", payout._id),
    merchantId: payout.merchantId,
    type: "payout",
    amountCents: -payout.amountCents,
    currency: payout.currency,
    source: payout._id,
    eventId: payout._id,
    createdAt: payout.updatedAt,
    availableAt: payout.updatedAt,
    payoutId: payout._id,
    counted: false,
  };
}

/** Step 4: payments moves the money (at most once: the payout id is the provider's key); a refusal fails the payout. */
async function sendPayout(deps: PayoutDeps, payout: PayoutDoc, requestId: string): Promise<PayoutDoc> {
  const sent = await deps.transfers.createPayout(requestId, {
    payout_id: payout._id,
    merchant_id: payout.merchantId,
    amount_cents: payout.amountCents,
    currency: payout.currency.toUpperCase(),
  });
  if (sent.status === "pending") {
    await deps.payouts.recordTransfer(payout._id, sent.transfer_id, deps.now().toISOString());
  } else {
    await settlePayout(deps, payout._id, { status: "failed", failure_code: sent.failure_code, failure_reason: sent.failure_reason });
  }
  return (await deps.payouts.find(payout._id)) ?? payout;
}
