import { announceUpcomingCharge } from "../../domain/renewals/announce-upcoming-charge.use-case.ts";
import { chargeRenewal } from "../../domain/renewals/charge-renewal.use-case.ts";
import type { RenewalDeps } from "../../domain/renewals/renewal.deps.ts";
import { every } from "@payrail/runtime";

/** Due subscriptions one pass takes; the next pass takes the rest. */
const BATCH = 50;
/** Upcoming-charge notices one query takes; a pass takes page after page while they come full. */
const NOTICE_BATCH = 500;
/** Pages one pass announces at most (20,000 notices): bounds a pass that keeps finding work. */
const NOTICE_PAGES = 40;

/**
 * The renewal scheduler of one payments instance: every `pollMs` it asks the index for the
 * subscriptions due now and charges each (chargeRenewal claims each with a lease, so any number
 * of instances can run this at once and each period is charged once). After downtime a missed
 * period is charged on the next pass, each one once and in order: the next period is scheduled
 * only when the previous charge settled. A failure is logged and retried on a later pass.
 * Each pass first announces the renewals whose notice is due (`subscription.upcoming`, once per
 * renewal, written with the due date it announced), so a notice precedes the charge it announces
 * even after downtime. A burst of renewals due at once (10,000 monthly subscriptions started on
 * one day) is announced in the same pass, page after page, not one page per `pollMs`: a page
 * that comes back short, or in which nothing could be announced (each failure is left for a
 * later pass), ends it.
 */
export function startRenewalScheduler(deps: RenewalDeps, pollMs: number): { stop(): Promise<void> } {
  const pass = async (stopping: () => boolean) => {
    const now = deps.now().toISOString();
    for (let page = 0; page < NOTICE_PAGES && !stopping(); page++) {
      const due = await deps.schedules.noticesDue(now, NOTICE_BATCH);
      let announced = 0;
      for (const checkoutId of due) {
        if (stopping()) break;
        try {
          await announceUpcomingCharge(deps, checkoutId, now);
          announced += 1;
        } catch (err) {
          deps.logger.error({ err, checkoutId }, "upcoming-charge notice failed; retried on a later pass");
        }
      }
      if (due.length < NOTICE_BATCH || announced === 0) break;
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
