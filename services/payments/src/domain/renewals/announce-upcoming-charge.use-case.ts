import { centsToDecimal } from "@payrail/contracts";
import type { RenewalOutcomeDeps } from "./renewal.deps.ts";
import { subscriptionEvent } from "../subscriptions/subscription-events.ts";
import { upcomingCharge, type UpcomingNoticePolicy } from "./upcoming-charge.ts";

/** Writes that lose to a concurrent change (a charge claimed, a cancel) read again; a few at most. */
const TRIES = 5;

export interface AnnounceDeps extends RenewalOutcomeDeps {
  upcomingNotice: UpcomingNoticePolicy;
}

/**
 * The upcoming-charge notice of one subscription, looked at `by` (now, or the test clock's time):
 * when its next renewal's notice is due by then, `subscription.upcoming` is written in one
 * conditional write (on the subscription's version, no charge in flight) that records the due
 * date it announced, so each renewal is announced once whatever the number of schedulers; when
 * the notice is due later, the look is moved to its time; when nothing is to be announced
 * (cancelled, a retry, announced already), the look is dropped.
 */
export async function announceUpcomingCharge(deps: AnnounceDeps, checkoutId: string, by: string): Promise<"announced" | "later" | "none"> {
  for (let i = 0; i < TRIES; i++) {
    const a = await deps.attempts.find(checkoutId);
    if (!a?.noticeDueAt) return "none";
    const upcoming = upcomingCharge(a, deps.upcomingNotice);
    if (!upcoming) {
      if (await deps.schedules.moveNotice(checkoutId, a.noticeDueAt, null)) return "none";
      continue;
    }
    if (upcoming.noticeAt > by) {
      if (upcoming.noticeAt === a.noticeDueAt || (await deps.schedules.moveNotice(checkoutId, a.noticeDueAt, upcoming.noticeAt))) return "later";
      continue;
    }
    const at = deps.now().toISOString();
    const set = { announcedChargeAt: upcoming.dueAt, noticeDueAt: null, subscriptionVersion: (a.subscriptionVersion ?? 0) + 1 };
    const event = subscriptionEvent("subscription.upcoming", { ...a, ...set }, at, deps.livemode, undefined, {
      upcoming_charge: {
        amount: centsToDecimal(upcoming.amountCents),
        previous_amount: centsToDecimal(upcoming.previousAmountCents),
        currency: a.currency,
        charge_at: upcoming.dueAt,
        period: upcoming.period,
      },
    });
    if (await deps.schedules.change(checkoutId, { version: a.subscriptionVersion, chargeUuid: undefined }, set, event)) {
      deps.events.written();
      return "announced";
    }
  }
  throw new Error(`subscription ${checkoutId} kept changing; its upcoming charge is announced on a later pass`);
}
