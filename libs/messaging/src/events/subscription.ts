import type { EventHandler, SubscribeOptions } from "../events.port.ts";
import { checkPatterns, matchesTopic } from "./topic-pattern.ts";

/** One service's subscription on one transport, its options settled. */
export interface Subscription {
  readonly service: string;
  readonly patterns: readonly string[];
  readonly handler: EventHandler;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly prefetch: number;
  /** Whether the subscription still asks for this type (its queue may hold older bindings). */
  wants(type: string): boolean;
}

/** Bounded by default: an event that keeps failing is dead-lettered after about 4 s. */
export const SUBSCRIBE_DEFAULTS = { maxAttempts: 5, retryDelayMs: 1_000, prefetch: 20 } as const;

/** Checks a subscribe() call and fills in the defaults. */
export function createSubscription(service: string, patterns: readonly string[], handler: EventHandler, options: SubscribeOptions = {}): Subscription {
  if (!/^[a-z][a-z0-9-]*$/.test(service)) throw new Error(`"${service}" is not a service name`);
  checkPatterns(patterns);
  const { maxAttempts, retryDelayMs, prefetch } = { ...SUBSCRIBE_DEFAULTS, ...options };
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error("maxAttempts must be a positive integer");
  if (!Number.isInteger(prefetch) || prefetch < 1) throw new Error("prefetch must be a positive integer");
  if (!(retryDelayMs >= 0)) throw new Error("retryDelayMs must not be negative");
  const own = [...patterns];
  return { service, patterns: own, handler, maxAttempts, retryDelayMs, prefetch, wants: (type) => own.some((p) => matchesTopic(p, type)) };
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
