import { every } from "@payrail/runtime";
import type { PayoutDeps } from "../../domain/ledger.deps.ts";
import { payoutPass } from "../../domain/run-payouts.use-case.ts";

/**
 * The payout clock on one ledger instance (PAYOUT_SCHEDULE): every `everyMs` it tries a pass, and
 * the pass's lease lets one replica at a time run it (the others find it busy). The first try
 * comes one period after the start; a day's payouts are one per merchant whatever the period.
 */
export function startPayoutScheduler(deps: PayoutDeps, everyMs: number): { stop(): Promise<void> } {
  return every(everyMs, (stopping) => payoutPass(deps, stopping), deps.logger, "payout pass");
}
