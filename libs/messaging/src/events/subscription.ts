import type { EventHandler, SubscribeOptions } from "../events.port.ts";
import { checkRetryPolicy, RETRY_DEFAULTS, type RetryPolicy } from "./retry-policy.ts";
import { checkPatterns, topicMatcher } from "./topic-pattern.ts";

/** One service's subscription on one transport, its options settled. */
export interface Subscription {
  readonly service: string;
  readonly patterns: readonly string[];
  readonly handler: EventHandler;
  readonly retry: RetryPolicy;
  readonly prefetch: number;
  readonly replayPollMs: number;
  /** Whether the subscription still asks for this type (its queue may hold older bindings). */
  wants(type: string): boolean;
}

/**
 * A failing event is retried with backoff for a day (`RETRY_DEFAULTS`, or the transport's
 * `eventRetry` from EVENT_RETRY_HOURS), never given up on after a few seconds.
 */
export const SUBSCRIBE_DEFAULTS = { retry: RETRY_DEFAULTS, prefetch: 20, replayPollMs: 5_000 } as const;

/**
 * Checks a subscribe() call and fills in the defaults: the subscribe() call's own retry
 * settings over the transport's (`transportRetry`) over `RETRY_DEFAULTS`.
 */
export function createSubscription(
  service: string,
  patterns: readonly string[],
  handler: EventHandler,
  options: SubscribeOptions = {},
  transportRetry: Partial<RetryPolicy> = {},
): Subscription {
  if (!/^[a-z][a-z0-9-]*$/.test(service)) throw new Error(`"${service}" is not a service name`);
  checkPatterns(patterns);
  const { prefetch = SUBSCRIBE_DEFAULTS.prefetch, replayPollMs = SUBSCRIBE_DEFAULTS.replayPollMs } = options;
  if (!Number.isInteger(prefetch) || prefetch < 1) throw new Error("prefetch must be a positive integer");
  if (!(replayPollMs > 0)) throw new Error("replayPollMs must be positive");
  const retry = checkRetryPolicy({ ...RETRY_DEFAULTS, ...transportRetry, ...options.retry });
  const own = [...patterns];
  return { service, patterns: own, handler, retry, prefetch, replayPollMs, wants: topicMatcher(own) };
}

/** Subscriptions of one transport, keyed by service: a second subscribe() of a service is a bug. */
export class Subscriptions {
  private readonly byService = new Map<string, Subscription>();

  add(subscription: Subscription): void {
    if (this.byService.has(subscription.service)) {
      throw new Error(`${subscription.service} already subscribes on this transport: pass all its patterns to one subscribe()`);
    }
    this.byService.set(subscription.service, subscription);
  }
}
