import { daysAfter, periodStart } from "./billing-period.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/**
 * Reg E 12 CFR 1005.10(d): a recurring debit whose amount differs from the previous one is
 * announced at least 10 days before it; so a new amount applies from the first renewal at least
 * this far away, and the scheduler starts looking at every renewal this long before it.
 */
export const CHANGED_AMOUNT_NOTICE_DAYS = 10;

/** NOTICE_DAYS_BEFORE: how long before an unchanged renewal the consumer is told of it (default 3). */
export interface UpcomingNoticePolicy {
  daysBefore: number;
}

/** What period `period` of the subscription charges: the merchant's new amount from its first period on. */
export function amountForPeriod(a: Pick<TransferAttemptRecord, "amountCents" | "amountChange">, period: number): number {
  const change = a.amountChange;
  if (!change) return a.amountCents;
  return period >= change.fromPeriod ? change.amountCents : change.previousAmountCents;
}

/** Where the scheduler first looks at a renewal due at `dueAt`: the longest notice before it. */
export function noticeLookFrom(dueAt: string): string {
  return daysAfter(dueAt, -CHANGED_AMOUNT_NOTICE_DAYS);
}

/** The schedule fields of a period's first presentment due at `dueAt`: the charge and the look at its notice. */
export function periodDue(dueAt: string): { nextChargeAt: string; noticeDueAt: string } {
  return { nextChargeAt: dueAt, noticeDueAt: noticeLookFrom(dueAt) };
}

/**
 * The upcoming renewal the consumer is to be told of, or null when there is none to announce:
 * a period's first presentment (retries follow a failure the consumer was told of), not
 * announced yet, of a subscription that is active. `noticeAt` is when it is due: 10 days before
 * when its amount differs from the period before, else `daysBefore`.
 */
export function upcomingCharge(
  a: TransferAttemptRecord,
  policy: UpcomingNoticePolicy,
): { dueAt: string; period: number; amountCents: number; previousAmountCents: number; noticeAt: string } | null {
  const dueAt = a.nextChargeAt;
  if (!dueAt || a.charge || a.subscriptionStatus !== "active" || a.subscriptionCancelledAt || (a.periodTry ?? 0) !== 0 || a.period === undefined) return null;
  if (a.announcedChargeAt === dueAt) return null;
  const amountCents = amountForPeriod(a, a.period);
  const previousAmountCents = amountForPeriod(a, a.period - 1);
  const days = amountCents === previousAmountCents ? policy.daysBefore : CHANGED_AMOUNT_NOTICE_DAYS;
  return { dueAt, period: a.period, amountCents, previousAmountCents, noticeAt: daysAfter(dueAt, -days) };
}

/**
 * The first period a new amount may apply to, when asked at `now`: the first renewal at least
 * 10 days away that is not being charged, retried or already announced at the old amount.
 */
export function firstPeriodForNewAmount(a: TransferAttemptRecord, now: string): number {
  const busy = !!a.charge || (a.periodTry ?? 0) > 0 || (!!a.nextChargeAt && a.announcedChargeAt === a.nextChargeAt);
  let period = Math.max(1, (a.period ?? 1) + (busy ? 1 : 0));
  const earliest = daysAfter(now, CHANGED_AMOUNT_NOTICE_DAYS);
  while (periodStart(a.anchorAt!, a.planType!, period) < earliest) period++;
  return period;
}
