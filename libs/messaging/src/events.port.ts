import type { AnyDomainEvent, DomainEvent } from "@payrail/contracts";
import type { RetryPolicy } from "./events/retry-policy.ts";

/** What a subscriber's handler knows about one delivery besides the event. */
export interface EventDelivery {
  /** The subscribing service (whose queue the event came from). */
  service: string;
  /** 1 on the first try, then 2, 3… while the subscription's retry window lasts. */
  attempt: number;
}

/**
 * Applies one event. Resolving acks it (so resolve only once the event's effect is written).
 * Throwing `EventCannotApply` (an aggregate it does not know and never will) dead-letters it at
 * once; any other throw is a failed attempt, retried with exponential backoff (see
 * `RetryPolicy`) until the retry window (`EVENT_RETRY_HOURS`) runs out, then dead-lettered with
 * the error's message. Delivery is at least once and unordered: the same event may come
 * again, so handlers remember processed event ids.
 */
export type EventHandler = (event: AnyDomainEvent, delivery: EventDelivery) => Promise<void>;

export interface SubscribeOptions {
  /** Backoff and retry window of failed events; by default the transport's (`eventRetry`). */
  retry?: Partial<RetryPolicy>;
  /** How often the subscriber looks for dead letters an operator asked to replay. Default 5 s. */
  replayPollMs?: number;
  /** Events this subscriber handles at once (unacked). Default 20. */
  prefetch?: number;
}

/** Event counts by event type, since the transport was created. */
export type CountsByType = Record<string, number>;

/** What a transport's publishers and subscribers have counted (read by metrics). */
export interface EventStats {
  /** Confirmed by the broker (in-process: queued). */
  published: CountsByType;
  /** Handled successfully and acked, duplicates included. */
  consumed: CountsByType;
  /** Failed attempts sent to be tried again. */
  retried: CountsByType;
  /** Given up on: out of retry time, can never apply, or not a valid event (counted as `invalid`). */
  deadLettered: CountsByType;
  /** The same dead letters by subscribing service and cause (`invalid`, `cannot_apply`, `retry_expired`). */
  deadLetteredBy: { service: string; cause: string; count: number }[];
}

/** An event its subscriber gave up on, as a dead-letter queue keeps it. */
export interface DeadLetteredEvent {
  /** The event's id and type, when the message had them. */
  id: string | undefined;
  type: string | undefined;
  /** The last handler error's message, or why the message is not a valid event. */
  reason: string;
  /** Why it was given up on: `invalid`, `cannot_apply`, `retry_expired`. */
  cause?: string;
  /** Attempts made. */
  attempts: number;
  /** The message as published. */
  body: string;
}

/**
 * Domain events, publish/subscribe. Every subscribing service has one queue, shared by its
 * replicas: each event is delivered to every service bound to its type, and to one replica of
 * each. Both transports deliver asynchronously and at least once, in no guaranteed order.
 */
export interface EventTransport {
  /**
   * Checks the event against its type's schema (throws if it does not fit), then publishes it
   * and resolves once the broker has it durably. Rejects with `service_unavailable` (broker
   * away, or the connection lost before the broker confirmed) or `service_timeout`: the event
   * may or may not have been published, so the caller publishes it again (ids dedupe).
   */
  publish(event: DomainEvent): Promise<void>;
  /**
   * Consumes `service`'s event queue, bound to these types or topic patterns (`refund.*`,
   * `#`), with `handler`. Resolves once the queue exists, so events published afterwards wait
   * for the service even while it is down. One subscription per service per transport;
   * replicas are other transports (processes) subscribing the same service.
   */
  subscribe(service: string, patterns: readonly string[], handler: EventHandler, options?: SubscribeOptions): Promise<void>;
}
