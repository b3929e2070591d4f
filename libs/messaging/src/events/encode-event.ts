import { AnyDomainEvent, type DomainEvent, issuePath } from "@payrail/contracts";
import { EventCannotApply } from "./event-cannot-apply.ts";

/**
 * The event as published, after checking it against its type's schema: a publisher that
 * breaks the contract finds out at once, not from a subscriber's dead-letter queue. Throws
 * `EventCannotApply` naming the first bad field: republishing the same event cannot help, so an
 * outbox relay dead-letters it rather than retrying it on every pass.
 */
export function encodeEvent(event: DomainEvent): string {
  const parsed = AnyDomainEvent.safeParse(event);
  if (!parsed.success) throw new EventCannotApply(`not a valid ${String(event?.type)} event: ${describeIssue(parsed.error.issues)}`);
  return JSON.stringify(parsed.data);
}

/** A message body back to an event, or why it is not one (the dead-letter reason). */
export function decodeEvent(body: string): { event: AnyDomainEvent; reason?: undefined } | { event?: undefined; reason: string } {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { reason: "not JSON" };
  }
  const parsed = AnyDomainEvent.safeParse(message);
  return parsed.success ? { event: parsed.data } : { reason: `invalid event: ${describeIssue(parsed.error.issues)}` };
}

/** Where the message is wrong, not what it holds: snapshots may carry personal data. */
function describeIssue(issues: Parameters<typeof issuePath>[0][]): string {
  const issue = issues[0];
  if (!issue) return "invalid";
  return `${issuePath(issue) || "event"} ${issue.message}`;
}
