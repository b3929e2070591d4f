import type { RefundLedger } from "./ports/refund-ledgers.port.ts";
import { releasesHold } from "./refund-state.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/** How long a hold may stand without its refund record before it counts as a dead request's. */
export const ORPHAN_HOLD_MS = 60_000;
/** Reads and writes a request may spend against racing ones before it gives up. */
const MAX_TRIES = 8;

export type Reservation = { reserved: number } | { remaining: number };

/**
 * Takes the refund's hold on its transaction's ledger for payout `attempt`: `cents`, or (null)
 * whatever is still refundable. The conditional write on the ledger is what decides; the
 * reads around it only say what to try. Answers what was reserved, or, when it does not fit,
 * how much remains. A hold the refund already has for this attempt (a racing or an earlier,
 * crashed call) is the reservation; its own hold of an earlier attempt, and dead holds of other
 * refunds, are given back on the way, so no crash can block a transaction's amount for good.
 */
export async function reserveRefundAmount(
  deps: Pick<RefundsDeps, "ledgers" | "refunds">,
  input: { transactionUuid: string; transactionCents: number; refundId: string; attempt: number; cents: number | null; at: string },
): Promise<Reservation> {
  const hold = (cents: number) => ({ cents, attempt: input.attempt, at: input.at });
  let remaining = 0;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const wanted = input.cents ?? remainingOf(await ledgerOf(deps, input));
    if (wanted > 0 && (await deps.ledgers.reserve(input.transactionUuid, input.refundId, hold(wanted), input.transactionCents))) {
      return { reserved: wanted };
    }
    // Not reserved: the ledger says why (it may not even exist yet: then it is opened here).
    const ledger = await ledgerOf(deps, input);
    const own = ledger.holds[input.refundId];
    if (own?.attempt === input.attempt) return { reserved: own.cents };
    remaining = remainingOf(ledger);
    if (await releaseDeadHolds(deps, ledger, input)) continue;
    // Room made by a release since the write: try again; else it does not fit.
    const fits = input.cents === null ? remaining > 0 : input.cents <= remaining;
    if (!fits) return { remaining };
  }
  return { remaining };
}

const remainingOf = (ledger: RefundLedger) => ledger.amountCents - ledger.reservedCents;

async function ledgerOf(deps: Pick<RefundsDeps, "ledgers">, input: { transactionUuid: string; transactionCents: number; at: string }): Promise<RefundLedger> {
  const found = await deps.ledgers.find(input.transactionUuid);
  if (found) return found;
  await deps.ledgers.open({ _id: input.transactionUuid, amountCents: input.transactionCents, reservedCents: 0, holds: {}, createdAt: input.at });
  const opened = await deps.ledgers.find(input.transactionUuid);
  if (!opened) throw new Error(`refund ledger of ${input.transactionUuid} vanished after it was opened`);
  return opened;
}

/**
 * Gives back holds nobody will use: the refund's own hold of an earlier attempt, a rejected or
 * failed refund's hold of its current attempt or before (a release lost to a crash), and a hold
 * whose refund record never appeared (a request that died between hold and record). A hold of
 * a later attempt than its failed refund's belongs to a retry on its way; the next retry of
 * that refund takes it over. True when something was given back.
 */
async function releaseDeadHolds(
  deps: Pick<RefundsDeps, "ledgers" | "refunds">,
  ledger: RefundLedger,
  self: { refundId: string; attempt: number; at: string },
): Promise<boolean> {
  const others = Object.keys(ledger.holds).filter((id) => id !== self.refundId);
  const refunds = new Map((others.length > 0 ? await deps.refunds.findMany(others) : []).map((r) => [r._id, r]));
  let released = false;
  for (const [refundId, hold] of Object.entries(ledger.holds)) {
    const refund = refunds.get(refundId);
    const dead =
      refundId === self.refundId
        ? hold.attempt < self.attempt
        : refund
          ? releasesHold(refund.status) && hold.attempt <= refund.attempt
          : Date.parse(self.at) - Date.parse(hold.at) > ORPHAN_HOLD_MS;
    if (!dead) continue;
    await deps.ledgers.release(ledger._id, refundId, hold.attempt, hold.cents);
    released = true;
  }
  return released;
}
