import type { PLAN_TYPES } from "@payrail/contracts";

export type PlanType = (typeof PLAN_TYPES)[number];

const DAY_MS = 86_400_000;
const MONTHS: Partial<Record<PlanType, number>> = { monthly: 1, quarterly: 3, yearly: 12 };
const DAYS: Partial<Record<PlanType, number>> = { daily: 1, weekly: 7 };

/**
 * When period `n` of a subscription starts (period 0 is the first charge, at `anchor`). Every
 * period is computed from the anchor, never from the previous period, so a clamped month end
 * does not drift: Jan 31 → Feb 28 (or 29) → Mar 31 (docs/api-notes.md, Subscriptions and renewals).
 */
export function periodStart(anchor: string, plan: PlanType, n: number): string {
  const start = new Date(anchor);
  const days = DAYS[plan];
  if (days !== undefined) return new Date(start.getTime() + n * days * DAY_MS).toISOString();
  const months = start.getUTCMonth() + n * MONTHS[plan]!;
  const year = start.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const at = new Date(start);
  at.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return at.toISOString();
}

/** `days` whole days after `at`. */
export function daysAfter(at: string, days: number): string {
  return new Date(new Date(at).getTime() + days * DAY_MS).toISOString();
}

/**
 * The first period, from `from` on, that starts after `at`: where a subscription that stopped
 * picks up again (a period that started while it was stopped, the one whose charge failed
 * included, is not charged after the fact).
 */
export function firstPeriodFrom(anchor: string, plan: PlanType, from: number, at: string): number {
  let n = Math.max(from, 1);
  while (periodStart(anchor, plan, n) <= at) n++;
  return n;
}
