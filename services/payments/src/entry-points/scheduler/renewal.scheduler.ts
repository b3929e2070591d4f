import { announceUpcomingCharge } from "../../domain/announce-upcoming-charge.use-case.ts";
import { chargeRenewal } from "../../domain/charge-renewal.use-case.ts";
import type { RenewalDeps } from "../../domain/renewal.deps.ts";
import { every } from "./every.ts";

/** Due subscriptions one pass takes; the next pass takes the rest. */
const BATCH = 50;
/** Upcoming-charge notices one pass looks at: a burst of renewals due at once is announced in a few passes. */
const NOTICE_BATCH = 500;

/**
 * The renewal scheduler of one payments instance: every `pollMs` it asks the index for the
 * subscriptions due now and charges each (chargeRenewal claims each with a lease, so any number
 * of instances can run this at once and each period is charged once). After downtime a missed
 * period is charged on the next pass, each one once and in order: the next period is scheduled
 * only when the previous charge settled. A failure is logged and retried on a later pass.
 * Each pass first announces the renewals whose notice is due (`subscription.upcoming`, once per
 * renewal, written with the due date it announced), so a notice precedes the charge it announces
 * even after downtime.
 */
export function startRenewalScheduler(deps: RenewalDeps, pollMs: number): { stop(): Promise<void> } {
  const pass = async (stopping: () => boolean) => {
    const now = deps.now().toISOString();
    for (const checkoutId of await deps.schedules.noticesDue(now, NOTICE_BATCH)) {
      try {
        await announceUpcomingCharge(deps, checkoutId, now);
      } catch (err) {
        deps.logger.error({ err, checkoutId }, "upcoming-charge notice failed; retried on a later pass");
      }
    }
    for (const checkoutId of await deps.schedules.due(now, BATCH)) {
      if (stopping()) break;
      try {
        await chargeRenewal(deps, checkoutId, now);
      } catch (err) {
        deps.logger.error({ err, checkoutId }, "renewal charge failed; retried on a later pass");
      }
    }
  };
  return every(pollMs, pass, deps.logger, "renewal pass");
}
