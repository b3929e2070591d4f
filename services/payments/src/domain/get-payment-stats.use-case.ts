import { centsToDecimal } from "@payrail/contracts";
import type { TransactionsPort } from "./ports/transactions.port.ts";

const DAY_MS = 86_400_000;
const WINDOWS = [7, 30] as const;
/** The volume adds up at most this many settled debits (the newest); beyond, it says it is partial. */
export const VOLUME_CAP = 2_000;

/**
 * Debits over the last 7 and 30 days: counts from indexes, and the settled volume from the
 * settled records themselves (one bounded read for both windows: the 30 days' newest
 * VOLUME_CAP hold the 7 days' unless the cap is reached).
 */
export async function getPaymentStats(deps: { transactions: Pick<TransactionsPort, "countDebits" | "countSettled" | "settledSince">; now(): Date }, merchantId: string) {
  const now = deps.now().getTime();
  const since = (days: number) => new Date(now - days * DAY_MS).toISOString();
  const settled = await deps.transactions.settledSince(merchantId, since(30), VOLUME_CAP);
  const capped = settled.length === VOLUME_CAP;
  const windows = await Promise.all(
    WINDOWS.map(async (days) => {
      const from = since(days);
      const inWindow = settled.filter((t) => t.created_at >= from);
      const [debits, settledCount] = await Promise.all([
        deps.transactions.countDebits(merchantId, from),
        capped ? deps.transactions.countSettled(merchantId, from) : Promise.resolve(inWindow.length),
      ]);
      const cents = inWindow.reduce((sum, t) => sum + t.amountCents, 0);
      return { days, debits, settled: settledCount, settled_volume: centsToDecimal(cents), volume_complete: settledCount === inWindow.length };
    }),
  );
  return { windows, currency: "USD" };
}
