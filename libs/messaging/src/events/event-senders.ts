import { eventOwner } from "@payrail/contracts";
import { serviceOfSender, type TrustedSenders } from "../rpc/trusted-senders.ts";

/**
 * Who sent a delivered event, as far as the broker vouches for it. RabbitMQ validates
 * `user_id` against the publishing connection's user, so it names the publisher; except on a
 * copy the subscriber itself sent on to its retry queue (or that was replayed from its
 * dead-letter queue by the subscribing service): that copy's `user_id` is the subscriber's own
 * user, and it carries the original's checked sender in `forwardedFrom`. Only the subscriber's
 * own user is believed about that header: any other sender of it is judged by its `user_id`.
 */
export interface EventSender {
  /** The message's `user_id`: the broker user that published this copy (undefined when none was sent). */
  userId: string | undefined;
  /** The `x-payrail-sender` header: the original publisher, on the subscriber's own forwarded copies. */
  forwardedFrom: string | undefined;
}

/** The broker user the event came from: the original publisher once own forwarding is undone. */
export function originalSender(sender: EventSender, ownUser: string | undefined): string | undefined {
  return ownUser !== undefined && sender.userId === ownUser && sender.forwardedFrom !== undefined ? sender.forwardedFrom : sender.userId;
}

/**
 * Why an event of `type` from broker user `from` must not be applied, or undefined when it may.
 * A type is accepted only from its owning service's users (`EVENT_OWNERS`, in libs/contracts):
 * payments' `transaction.*` from payments' user, never from webhooks', the gateway's or the
 * CLI's. Without a policy (one broker user for everything, as in development) nothing is refused.
 */
export function refusedEventSender(trust: TrustedSenders | undefined, from: string | undefined, type: string): string | undefined {
  if (!trust) return undefined;
  const owner = eventOwner(type);
  if (owner === undefined) return `no service owns events of type ${type}`;
  if (from !== undefined && (trust.services[owner] ?? []).includes(from)) return undefined;
  const service = serviceOfSender(trust, from);
  const who = from === undefined ? "a publisher without user_id" : service === undefined ? `broker user ${from}` : `broker user ${from} (the ${service} service)`;
  return `forged event: ${type} is accepted only from ${owner}, not from ${who}`;
}
