import type { AnyDomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { EventCounters } from "./event-counters.ts";
import { decodeEvent } from "./encode-event.ts";
import type { Subscription } from "./subscription.ts";

/** What to do with a delivered event once its handler has run. */
export type EventOutcome =
  | { kind: "ack" }
  /** Failed attempt with attempts left: deliver it again after the subscription's retry delay. */
  | { kind: "retry"; reason: string }
  /** Out of attempts, or never going to work: keep it in the dead-letter queue with the reason. */
  | { kind: "dead"; reason: string };

const MAX_REASON_LENGTH = 1_000;

/**
 * Runs one delivered message through a subscription and decides its fate; both transports
 * then ack, retry or dead-letter it their own way. Never throws.
 *
 * - Not a valid event (not JSON, or not fitting its type's schema): dead at once, since no
 *   retry can fix it; counted as `invalid`.
 * - `refuse` says its sender may not publish its type (`event-senders.ts`): dead at once, never
 *   applied, logged with the sender, type and id (never the payload); counted as `forged`.
 * - A type the subscription no longer asks for (a binding left on the durable queue by an
 *   older deployment): acked and skipped.
 * - The handler resolves: ack. It throws: retry while `attempt < maxAttempts`, else dead. The
 *   reason is the error's message only; its stack goes to the log, never onto the wire.
 */
export async function handleEvent(
  subscription: Subscription,
  body: string,
  attempt: number,
  logger: Logger,
  counters: EventCounters,
  refuse?: (event: AnyDomainEvent) => { reason: string; sender: string | undefined } | undefined,
): Promise<EventOutcome> {
  const { service, maxAttempts } = subscription;
  const { event, reason } = decodeEvent(body);
  if (!event) {
    logger.warn({ service, reason }, "dead-lettered a message that is not a valid event");
    counters.count("deadLettered", "invalid");
    return { kind: "dead", reason };
  }
  const { id: eventId, type } = event;
  const forged = refuse?.(event);
  if (forged) {
    logger.warn({ service, eventId, type, sender: forged.sender ?? null }, "dead-lettered a forged event: its sender does not own its type");
    counters.count("deadLettered", "forged");
    return { kind: "dead", reason: forged.reason };
  }
  if (!subscription.wants(type)) {
    logger.debug({ service, eventId, type }, "skipped an event this service no longer subscribes to");
    return { kind: "ack" };
  }
  try {
    await subscription.handler(event, { service, attempt });
    counters.count("consumed", type);
    return { kind: "ack" };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, MAX_REASON_LENGTH);
    if (attempt < maxAttempts) {
      logger.warn({ service, eventId, type, attempt, maxAttempts, reason }, "event handler failed: will retry");
      counters.count("retried", type);
      return { kind: "retry", reason };
    }
    logger.error({ err, service, eventId, type, attempts: attempt }, "event handler failed: dead-lettered");
    counters.count("deadLettered", type);
    return { kind: "dead", reason };
  }
}
