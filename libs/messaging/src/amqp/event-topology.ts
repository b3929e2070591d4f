import type { Channel, ConfirmChannel, Options } from "amqplib";

/** The exchange every domain event is published to (routing key = the event's type). */
export const EVENTS_EXCHANGE = "payrail.events";

/** Headers the subscriber side writes when it sends an event on to retry or to dead-letter. */
export const EVENT_HEADERS = {
  /** The attempt this delivery is (on a dead letter: the attempts made). Absent means 1. */
  attempt: "x-payrail-attempt",
  /** The last handler error's message, or why the message is not a valid event. */
  error: "x-payrail-error",
  /**
   * On a copy the subscriber sent on (retry, dead letter): the broker user that published the
   * original, since the copy's `user_id` is the subscriber's own (see `events/event-senders.ts`).
   */
  sender: "x-payrail-sender",
  /** Epoch ms of the first failed attempt: the retry window (EVENT_RETRY_HOURS) counts from it. */
  firstFailedAt: "x-payrail-first-failed-at",
} as const;

/** The queues of one subscribing service, all durable. */
export interface EventQueues {
  /** `<service>.events`: bound to the exchange for each of the service's patterns. */
  main: string;
  /**
   * `<service>.events.retry.<ms>`, one per backoff step (a delay tier): no consumer; a message
   * waits out its expiration here, then the broker dead-letters it back into `main` (default
   * exchange, routing key = `main`). Per-message expiration is only applied at the head of a
   * queue, so one retry queue with growing delays would hold a 1 s retry behind a 5 min one;
   * within a tier every message expires within the tier's TTL (`x-message-ttl` = the step,
   * jitter only shortens it), so none waits much past its own delay.
   */
  retry(stepMs: number): string;
  /** `<service>.events.dead`: events given up on, with the reason in a header. */
  dead: string;
}

export function eventQueuesOf(prefix: string, service: string): EventQueues {
  const main = `${prefix}${service}.events`;
  return { main, retry: (stepMs) => `${main}.retry.${stepMs}`, dead: `${main}.dead` };
}

export function assertEventsExchange(channel: Channel, exchange: string): Promise<unknown> {
  return channel.assertExchange(exchange, "topic", { durable: true });
}

/**
 * Declares (idempotently) a subscribing service's queues and binds its main queue to each
 * pattern. Bindings are only ever added: one a deployment no longer wants stays until it is
 * unbound by hand, and the subscriber acks and skips what arrives through it.
 */
export async function declareEventQueues(
  channel: ConfirmChannel,
  exchange: string,
  queues: EventQueues,
  patterns: readonly string[],
  retrySteps: readonly number[],
): Promise<void> {
  await assertEventsExchange(channel, exchange);
  await channel.assertQueue(queues.main, { durable: true });
  for (const stepMs of retrySteps) {
    const backToMain: Options.AssertQueue = { durable: true, deadLetterExchange: "", deadLetterRoutingKey: queues.main, messageTtl: stepMs };
    await channel.assertQueue(queues.retry(stepMs), backToMain);
  }
  await channel.assertQueue(queues.dead, { durable: true });
  for (const pattern of patterns) await channel.bindQueue(queues.main, exchange, pattern);
}
