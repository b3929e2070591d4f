/**
 * How a subscriber retries an event whose handler failed for a reason that may pass (the
 * store or broker away, a timeout, any ordinary throw): waits that double from `firstDelayMs`
 * up to `maxDelayMs` a step, each with jitter, for up to `retryForMs` after the first failure.
 * Only then, or for an event that can never apply, is it dead-lettered. A ~10 s database
 * failover is ridden out in a few steps; a day-long outage in a few hundred.
 */
export interface RetryPolicy {
  /** The first wait. Default 1 s. */
  firstDelayMs: number;
  /** The longest wait of one step (the doubling stops there). Default 5 min. */
  maxDelayMs: number;
  /** How long after its first failure an event is still retried (`EVENT_RETRY_HOURS`). Default 24 h. */
  retryForMs: number;
}

export const RETRY_DEFAULTS: RetryPolicy = { firstDelayMs: 1_000, maxDelayMs: 5 * 60_000, retryForMs: 24 * 3_600_000 };

/** Steps are capped at a few dozen so a policy cannot declare a queue per millisecond. */
const MAX_STEPS = 32;

/** Every distinct wait of the policy, shortest first: 1 s, 2 s, 4 s … `maxDelayMs`. */
export function retrySteps(policy: RetryPolicy): number[] {
  const steps: number[] = [];
  for (let step = policy.firstDelayMs; steps.length < MAX_STEPS; step *= 2) {
    if (step >= policy.maxDelayMs) {
      steps.push(policy.maxDelayMs);
      break;
    }
    steps.push(step);
  }
  return steps;
}

/** The step after the `failures`-th failed attempt (1 → the first step). */
export function stepAfter(policy: RetryPolicy, failures: number): number {
  const steps = retrySteps(policy);
  return steps[Math.min(Math.max(failures, 1), steps.length) - 1] as number;
}

/**
 * A wait of at most `stepMs`, at least 80 % of it: spreads the retries of events that failed
 * together (a failover fails them all at once) without ever waiting past the step, which the
 * RabbitMQ retry tiers rely on (a tier's queue TTL is its step; see event-topology.ts).
 */
export function jittered(stepMs: number, random: () => number = Math.random): number {
  return Math.round(stepMs * (0.8 + 0.2 * random()));
}

/** Checks a policy given to subscribe() or the transport. */
export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  const { firstDelayMs, maxDelayMs, retryForMs } = policy;
  if (!(Number.isInteger(firstDelayMs) && firstDelayMs >= 1)) throw new Error("retry.firstDelayMs must be a positive whole number of ms");
  if (!(Number.isInteger(maxDelayMs) && maxDelayMs >= firstDelayMs)) throw new Error("retry.maxDelayMs must be a whole number of ms, at least firstDelayMs");
  if (!(retryForMs >= 0)) throw new Error("retry.retryForMs must not be negative");
  return { firstDelayMs, maxDelayMs, retryForMs };
}
