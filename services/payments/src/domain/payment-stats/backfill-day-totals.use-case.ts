import type { Logger } from "@payrail/runtime";
import { countDayTotal } from "./count-day-total.ts";
import type { DayTotalsPort } from "./ports/day-totals.port.ts";
import type { JobLeasesPort } from "../shared/ports/job-leases.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";

const JOB = "day-totals-backfill";
const DAY_MS = 86_400_000;
/** The overview shows 30 days; one more covers a window that started yesterday in another zone. */
const BACKFILL_DAYS = 31;
const PAGE = 500;

export interface BackfillDayTotalsDeps {
  transactions: Pick<TransactionsPort, "finalSince">;
  dayTotals: DayTotalsPort;
  jobs: JobLeasesPort;
  logger: Logger;
  now(): Date;
  /** How long one replica holds the job (the lease runs out if it dies; the next start takes over). */
  backfillLeaseMs: number;
}

/**
 * Once per database: counts the debits that settled (or came back) before the day totals were
 * kept, those created in the last 31 days (older days are never shown). Under a job lease, so one
 * replica does it; counting is idempotent, so racing live settlements, or a second run after a
 * crash, count nothing twice. Pages through the `{transaction_status, updated_at}` index: a record
 * made in the window was last changed in it too.
 */
export async function backfillDayTotals(deps: BackfillDayTotalsDeps): Promise<"done" | "skipped"> {
  if (await deps.dayTotals.backfilled()) return "skipped";
  const now = deps.now().getTime();
  const lease = await deps.jobs.take(JOB, new Date(now).toISOString(), new Date(now + deps.backfillLeaseMs).toISOString());
  if (!lease) return "skipped";
  try {
    const since = new Date(now - BACKFILL_DAYS * DAY_MS).toISOString();
    let counted = 0;
    for (const status of ["completed", "returned"] as const) {
      let after: { updatedAt: string; id: string } | undefined;
      for (;;) {
        const page = await deps.transactions.finalSince(status, since, PAGE, after);
        for (const t of page) {
          if (t.created_at < since) continue;
          await countDayTotal(deps, t);
          counted += 1;
        }
        const last = page.at(-1);
        if (!last || page.length < PAGE) break;
        after = { updatedAt: last.updated_at, id: last._id };
      }
    }
    await deps.dayTotals.markBackfilled(new Date(now).toISOString());
    deps.logger.info({ counted }, "day totals backfilled");
    return "done";
  } finally {
    await deps.jobs.release(JOB, lease);
  }
}
