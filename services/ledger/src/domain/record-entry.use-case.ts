import type { AnyDomainEvent } from "@payrail/contracts";
import type { BalanceTransactionDoc } from "./balance-transaction.entity.ts";
import { booksEntry } from "./books-entry.ts";
import type { LedgerDeps } from "./ledger.deps.ts";

/**
 * One event's balance transaction: inserted once under an id derived from the movement, then
 * counted in the merchant's running total. A repeated event finds its row and only finishes
 * counting it if a crash left that undone; a failure throws, and the transport tries the event again.
 */
export async function recordEntry(deps: LedgerDeps, event: AnyDomainEvent): Promise<void> {
  const entry = booksEntry(event, deps.availableDays);
  if (!entry) return;
  await bookRow(deps, { ...entry, counted: false });
}

/**
 * Inserts a row once (its id derives from the movement) and counts it in the merchant's total
 * once: a repeat finds the row and only finishes counting it if a crash left that undone.
 */
export async function bookRow(deps: Pick<LedgerDeps, "rows" | "balances">, doc: BalanceTransactionDoc): Promise<void> {
  const inserted = await deps.rows.insert(doc);
  const row = inserted ? doc : await deps.rows.find(doc._id);
  if (!row || row.counted) return;
  await countRow(deps, row);
}

/**
 * Adds a row to its merchant's total, exactly once, with no multi-document transaction: the
 * total's write names the row it counted (`lastBtx`) and expects the `seq` it read, and before
 * any further write the row it names gets its `counted` flag. So at any moment the total is the
 * sum of the flagged rows plus, perhaps, `lastBtx` not yet flagged.
 */
export async function countRow(deps: Pick<LedgerDeps, "rows" | "balances">, row: BalanceTransactionDoc): Promise<void> {
  for (;;) {
    const total = await deps.balances.find(row.merchantId);
    if (!total) {
      await deps.balances.open(row.merchantId, row.currency);
      continue;
    }
    if (total.lastBtx === row._id) break;
    if (total.lastBtx) await deps.rows.markCounted(total.lastBtx);
    // Another writer may have counted this row meanwhile (and moved on).
    const fresh = await deps.rows.find(row._id);
    if (!fresh || fresh.counted) return;
    if (await deps.balances.count(row.merchantId, total.seq, row)) break;
  }
  await deps.rows.markCounted(row._id);
}
