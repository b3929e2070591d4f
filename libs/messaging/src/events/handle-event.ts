import type { AnyDomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { EventCounters } from "./event-counters.ts";
import { decodeEvent } from "./encode-event.ts";
import { cannotApply } from "./event-cannot-apply.ts";
import { jittered, stepAfter } from "./retry-policy.ts";
import type { Subscription } from "./subscription.ts";

/** What the transport knows of one delivery of a message. */
export interface DeliveryState {
  /** The attempt this delivery is (1 on the first). */
  attempt: number;
  /** Epoch ms of the message's first failed attempt; absent until it failed once. */
  firstFailedAt?: number | undefined;
}

/** What to do with a delivered event once its handler has run. */
export type EventOutcome =
  | { kind: "ack" }
  /**
   * Failed for a reason that may pass: deliver it again after `delayMs` (jittered, at most
   * `stepMs`, the backoff step a RabbitMQ retry tier is made for).
   */
  | { kind: "retry"; reason: string; stepMs: number; delayMs: number; firstFailedAt: number }
  /** Never going to work, or out of retry time: keep it as a dead letter with the reason. */
  | { kind: "dead"; reason: string; cause: DeadLetterCause };

/** Why an event was dead-lettered: the label of the dead-letter counter (a fixed set). */
export type DeadLetterCause = "invalid" | "cannot_apply" | "retry_expired" | "forged" | (string & {});

const MAX_REASON_LENGTH = 1_000;

/**
 * Runs one delivered message through a subscription and decides its fate; both transports
 * then ack, retry or dead-letter it their own way. Never throws.
 *
 * - Not a valid event (not JSON, or not fitting its type's schema): dead at once, since no
 *   retry can fix it (`invalid`).
 * - `refuse` says its sender may not publish its type (`event-senders.ts`): dead at once, never
 *   applied, logged with the sender, type and id (never the payload) (`forged`).
 * - A type the subscription no longer asks for (a binding left on the durable queue by an
 *   older deployment): acked and skipped.
 * - The handler resolves: ack. It throws `EventCannotApply`: dead at once (`cannot_apply`).
 *   Any other throw: retry after the policy's next backoff step, until the retry window since
 *   the first failure has run out (`retry_expired`). The reason is the error's message only;
 *   its stack goes to the log, never onto the wire.
 */
export async function handleEvent(
  subscription: Subscription,
  body: string,
  delivery: DeliveryState,
  logger: Logger,
  counters: EventCounters,
  now: () => number = Date.now,
  refuse?: (event: AnyDomainEvent) => { reason: string; sender: string | undefined } | undefined,
): Promise<EventOutcome> {
  const { service, retry } = subscription;
  const { attempt } = delivery;
  const { event, reason: invalid } = decodeEvent(body);
  if (!event) return deadLetter({ service, logger, counters }, { cause: "invalid", reason: invalid, attempts: attempt });
  const { id: eventId, type } = event;
  const forged = refuse?.(event);
  if (forged) {
    logger.warn({ service, eventId, type, sender: forged.sender ?? null }, "refused a forged event: its sender does not own its type");
    return deadLetter({ service, logger, counters }, { cause: "forged", reason: forged.reason, attempts: attempt, eventId, type });
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
    if (cannotApply(err)) return deadLetter({ service, logger, counters }, { cause: "cannot_apply", reason, attempts: attempt, eventId, type });
    const at = now();
    const firstFailedAt = delivery.firstFailedAt ?? at;
    if (at - firstFailedAt >= retry.retryForMs) {
      logger.error({ err, service, eventId, type, attempts: attempt }, "event handler failed past its retry window");
      return deadLetter({ service, logger, counters }, { cause: "retry_expired", reason: `retried for ${Math.round((at - firstFailedAt) / 1000)} s: ${reason}`, attempts: attempt, eventId, type });
    }
    const stepMs = stepAfter(retry, attempt);
    logger.warn({ service, eventId, type, attempt, stepMs, reason }, "event handler failed: will retry");
    counters.count("retried", type);
    return { kind: "retry", reason, stepMs, delayMs: jittered(stepMs), firstFailedAt };
  }
}

/**
 * The one way an event becomes a dead letter: counted (by type, and by service and cause),
 * logged, and answered as the `dead` outcome the transport then records. Any check that
 * decides an event must never apply (a forged sender, say) calls this with its own cause.
 */
export function deadLetter(
  context: { service: string; logger: Logger; counters: EventCounters },
  letter: { cause: DeadLetterCause; reason: string; attempts: number; eventId?: string; type?: string },
): EventOutcome {
  const { service, logger, counters } = context;
  const { cause, reason, attempts, eventId, type } = letter;
  const level = cause === "invalid" || cause === "cannot_apply" ? "warn" : "error";
  logger[level]({ service, eventId, type, cause, reason, attempts }, "event dead-lettered");
  counters.count("deadLettered", type ?? "invalid");
  counters.countDead(service, cause);
  return { kind: "dead", reason: reason.slice(0, MAX_REASON_LENGTH), cause };
}
