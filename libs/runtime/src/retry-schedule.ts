/**
 * When the next attempt is due after `attempts` failed ones, or null when the schedule is spent
 * (webhook deliveries, consumer notices).
 * Each wait is spread by ±20 % jitter (`random` in [0, 1)), so endpoints that failed together
 * (an outage) are not all retried in the same instant.
 */
export function nextRetryDelayMs(schedule: readonly number[], attempts: number, random: () => number = Math.random): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}
