/**
 * The crash test's delivery policy: an attempt may hang 20 s (so the kill lands mid-attempt)
 * but its claim lasts 1.5 s, after which a restarted service takes the delivery over.
 */
export const crashPolicy = { retryScheduleMs: [200, 200], timeoutMs: 20_000, disableAfterMs: 3_600_000, leaseMs: 1_500 };
