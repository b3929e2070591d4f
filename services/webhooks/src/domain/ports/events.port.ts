import type { EventDoc } from "../webhook-event.entity.ts";

/** Which of a merchant's events a list asks for; `after` is the last event of the previous page. */
export interface EventFilter {
  type?: string | undefined;
  group?: string | undefined;
  /** Events created before this are past retention: invisible. */
  since: string;
  after?: Pick<EventDoc, "_id" | "createdAt"> | undefined;
}

/** The merchants' events, kept 30 days. */
export interface EventsPort {
  /** Stores the event; false when it was stored before (events come at least once). */
  insert(doc: EventDoc): Promise<boolean>;
  find(eventId: string): Promise<EventDoc | null>;
  /** The merchant's events, newest first. */
  list(merchantId: string, filter: EventFilter, limit: number): Promise<EventDoc[]>;
}
