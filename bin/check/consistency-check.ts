import type { Store } from "@payrail/store";
import { checkBooks } from "./check-books.ts";
import { checkDeadLetters } from "./check-dead-letters.ts";
import { checkEventsApi } from "./check-events-api.ts";
import { checkOutboxes } from "./check-outboxes.ts";
import { checkPayments } from "./check-payments.ts";
import { checkRefunds } from "./check-refunds.ts";
import type { CheckContext, Divergence } from "./divergence.ts";

export type { Divergence } from "./divergence.ts";

/**
 * `payrail check` (docs/api-notes.md, Convergence with the provider): every divergence between checkouts, transaction records,
 * refunds, refund payouts, the merchant's books and payouts, outboxes, dead letters and the events API. It reads every service's collections
 * directly, and writes no document: comparing what each service recorded is its whole job, which no
 * single service's API could answer. Changes younger than `graceMs` are left out: their events
 * may still be on their way.
 */
export async function checkConsistency(store: Store, options: { now?: Date; graceMs?: number } = {}): Promise<Divergence[]> {
  const now = options.now ?? new Date();
  const graceMs = options.graceMs ?? 60_000;
  const ctx: CheckContext = { store, now, graceMs, settledBefore: new Date(now.getTime() - graceMs).toISOString() };
  const found: Divergence[] = [];
  const report = (d: Divergence) => void found.push(d);
  for (const check of [checkPayments, checkRefunds, checkBooks, checkOutboxes, checkDeadLetters, checkEventsApi]) await check(ctx, report);
  return found;
}
