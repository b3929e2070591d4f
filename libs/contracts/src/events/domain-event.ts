import { z } from "zod";

/** An event's id, its deduplication key everywhere (docs/api-notes.md, Events and webhooks): `evt_` + 32 lowercase hex. */
export const EventId = z.string().regex(/^evt_[0-9a-f]{32}$/, "must be evt_ and 32 lowercase hex");

/** The document whose change the event reports. */
export const EventAggregate = z.object({
  /** What kind of document: `checkout`, `transaction`, `subscription`, `refund`. */
  type: z.string().regex(/^[a-z_]+$/),
  /** Its public id (`chk_…`, `sc-…`, `rfd_…`). */
  id: z.string().min(1).max(128),
  /**
   * The document's version after the change (it counts the document's writes). Events may
   * arrive late or twice: a subscriber that keeps the version it last applied ignores older ones.
   */
  version: z.number().int().nonnegative(),
});
export type EventAggregate = z.infer<typeof EventAggregate>;

/**
 * The envelope every domain event travels in, whatever its type. `data` is checked by the
 * type's own schema (see `EVENT_SCHEMAS`); here it is only carried.
 *
 * Delivery is at least once and unordered: `id` tells duplicates apart, `aggregate.version`
 * tells a stale snapshot from a newer one.
 */
export const DomainEvent = z.object({
  id: EventId,
  /** `<aggregate>.<what happened>`, e.g. `refund.approved`: also the routing key. */
  type: z.string().regex(/^[a-z_]+(\.[a-z_]+)+$/),
  /** When the change was written: ISO 8601 UTC with milliseconds and `Z` (docs/api-notes.md, Identifiers and times). */
  created_at: z.iso.datetime({ precision: 3 }),
  aggregate: EventAggregate,
  /** Whether the change happened in live or sandbox mode, when the aggregate knows. */
  livemode: z.boolean().optional(),
  /**
   * The merchant the aggregate belongs to (`mer_…`): whose events API lists the event and whose
   * webhook endpoints receive it. Never shown to merchants (their event object has no such key).
   */
  merchant_id: z.string().min(1).max(128),
  data: z.unknown(),
});
export type DomainEvent = z.infer<typeof DomainEvent>;

/**
 * The schema of one event type: the envelope with its `type` and `aggregate.type` fixed and
 * `data: { object }`, where the object is the aggregate's snapshot as the API shows it.
 */
export function defineEvent<T extends string, A extends string, O extends z.ZodType>(type: T, aggregateType: A, object: O) {
  return DomainEvent.extend({
    type: z.literal(type),
    aggregate: EventAggregate.extend({ type: z.literal(aggregateType) }),
    data: z.object({ object }),
  });
}
