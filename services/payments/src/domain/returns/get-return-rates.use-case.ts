import type { ReturnRatesResponse } from "@payrail/contracts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import { RETURN_THRESHOLDS, RETURN_WINDOW_DAYS, WARNING_SHARE, type ReturnGroup } from "./return-groups.ts";
import { returnRateStats } from "./return-rate-stats.ts";

const DAY_MS = 86_400_000;

/**
 * The merchant's return rates over the last 60 days (docs/api-notes.md, Returns and blocked bank accounts): debits made in the window,
 * returns learnt in it, by NACHA group. Four index counts (no document is read, however many
 * transactions there are); the rates also feed the process's gauges.
 */
export async function getReturnRates(deps: { transactions: Pick<TransactionsPort, "countDebits" | "countReturns">; now(): Date }, merchantId: string): Promise<ReturnRatesResponse> {
  const to = deps.now();
  const from = new Date(to.getTime() - RETURN_WINDOW_DAYS * DAY_MS).toISOString();
  const [debits, unauthorized, administrative, overall] = await Promise.all([
    deps.transactions.countDebits(merchantId, from),
    deps.transactions.countReturns(merchantId, from, "unauthorized"),
    deps.transactions.countReturns(merchantId, from, "administrative"),
    deps.transactions.countReturns(merchantId, from),
  ]);
  const group = (name: ReturnGroup, returns: number) => {
    const rate = debits === 0 ? 0 : returns / debits;
    returnRateStats.record(merchantId, name, rate);
    return { returns, rate, threshold: RETURN_THRESHOLDS[name], warning_at: RETURN_THRESHOLDS[name] * WARNING_SHARE };
  };
  return {
    window_days: RETURN_WINDOW_DAYS,
    from,
    to: to.toISOString(),
    debits,
    unauthorized: group("unauthorized", unauthorized),
    administrative: group("administrative", administrative),
    overall: group("overall", overall),
  };
}
