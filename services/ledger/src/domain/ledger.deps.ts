import type { Logger } from "@payrail/runtime";
import type { AuditLogPort } from "./ports/audit-log.port.ts";
import type { BalancesPort, BalanceTransactionsPort } from "./ports/books.port.ts";
import type { JobLeasesPort, PayoutsPort, PayoutTransfersPort } from "./ports/payouts.port.ts";

/** What the ledger's use cases need, built by the composition root. */
export interface LedgerDeps {
  rows: BalanceTransactionsPort;
  balances: BalancesPort;
  /** The merchants' audit entries, written by other services' events (docs/decisions/0054-audit-log.md). */
  auditLog: AuditLogPort;
  /** Banking days until a settled debit is available (FUNDS_AVAILABLE_DAYS; 0 with sandbox providers). */
  availableDays: number;
  logger: Logger;
  now: () => Date;
}

/** Payouts: the books, the payouts with their events, their leases, and payments to move the money. */
export interface PayoutDeps extends LedgerDeps {
  payouts: PayoutsPort;
  jobs: JobLeasesPort;
  transfers: PayoutTransfersPort;
  /** How long one merchant's payout (or one pass) may hold its lease before another may take over. */
  leaseMs: number;
  /** Whether this deployment moves real money (PROVIDERS=live): the payout events' `livemode`. */
  livemode: boolean;
  /** Told after every write that stored events, so they are published at once. */
  events: { written(): void };
}
