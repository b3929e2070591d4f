import type { Logger } from "@payrail/runtime";
import type { BalancesPort, BalanceTransactionsPort } from "./ports/books.port.ts";

/** What the ledger's use cases need, built by the composition root. */
export interface LedgerDeps {
  rows: BalanceTransactionsPort;
  balances: BalancesPort;
  /** Banking days until a settled debit is available (FUNDS_AVAILABLE_DAYS; 0 with sandbox providers). */
  availableDays: number;
  logger: Logger;
  now: () => Date;
}
