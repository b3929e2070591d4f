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
} as const;

/** The queues of one subscribing service, all durable. */
export interface EventQueues {
  /** `<service>.events`: bound to the exchange for each of the service's patterns. */
  main: string;
  /** `<service>.events.retry`: no consumer; a message waits out its expiration here, then the
   * broker dead-letters it back into `main` (default exchange, routing key = `main`). */
  retry: string;
  /** `<service>.events.dead`: events given up on, with the reason in a header. */
  dead: string;
}

export function eventQueuesOf(prefix: string, service: string): EventQueues {
  const main = `${prefix}${service}.events`;
  return { main, retry: `${main}.retry`, dead: `${main}.dead` };
}

export function assertEventsExchange(channel: Channel, exchange: string): Promise<unknown> {
  return channel.assertExchange(exchange, "topic", { durable: true });
}

/**
 * Declares (idempotently) a subscribing service's queues and binds its main queue to each
 * pattern. Bindings are only ever added: one a deployment no longer wants stays until it is
 * unbound by hand, and the subscriber acks and skips what arrives through it.
 */
export async function declareEventQueues(channel: ConfirmChannel, exchange: string, queues: EventQueues, patterns: readonly string[]): Promise<void> {
  await assertEventsExchange(channel, exchange);
  await channel.assertQueue(queues.main, { durable: true });
  const backToMain: Options.AssertQueue = { durable: true, deadLetterExchange: "", deadLetterRoutingKey: queues.main };
  await channel.assertQueue(queues.retry, backToMain);
  await channel.assertQueue(queues.dead, { durable: true });
  for (const pattern of patterns) await channel.bindQueue(queues.main, exchange, pattern);
}
