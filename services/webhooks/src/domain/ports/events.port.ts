import type { DomainEvent } from "@payrail/contracts";
import type { EventDoc } from "../webhook-event.entity.ts";

/** Which of a merchant's events a list asks for; `after` is the last event of the previous page. */
export interface EventFilter {
  type?: string | undefined;
  group?: string | undefined;
  /** Only events about this id (a checkout, transaction or refund). */
  about?: string | undefined;
  /** Events created before this are past retention: invisible. */
  since: string;
  after?: Pick<EventDoc, "_id" | "createdAt"> | undefined;
}

/** The merchants' events, kept 30 days. */
export interface EventsPort {
  /** Stores the event; false when it was stored before (events come at least once). */
  /** Stores the event (with a test event's audit entry, in the same insert); false when it is stored already. */
  insert(doc: EventDoc, audit?: readonly DomainEvent[]): Promise<boolean>;
  find(eventId: string): Promise<EventDoc | null>;
  /** The merchant's events, newest first. */
  list(merchantId: string, filter: EventFilter, limit: number): Promise<EventDoc[]>;
  /**
   * Takes the event's redelivery turn: sets `redeliverableAfter` to `until` when it is unset or
   * not after `at`, in one conditional write; false when the turn is not free yet.
   */
  claimRedelivery(eventId: string, at: string, until: string): Promise<boolean>;
  /** Frees the turn `claimRedelivery` took until `until` (if no later one replaced it). */
  releaseRedelivery(eventId: string, until: string): Promise<void>;
}
