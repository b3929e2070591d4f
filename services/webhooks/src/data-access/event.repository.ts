import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, olderThan, type Filter, type Store } from "@payrail/store";
import type { EventFilter, EventsPort } from "../domain/ports/events.port.ts";
import type { EventDoc } from "../domain/webhook-event.entity.ts";

export const EVENTS_COLLECTION = "webhook_events";

/** The merchants' events (`_id` = event id); a test event's document carries its audit entry (the outbox). */
export class EventRepository implements EventsPort {
  constructor(private readonly store: Store) {}

  private get events() {
    return this.store.collection<EventDoc>(EVENTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.events.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
    await this.events.createIndex({ keys: { merchantId: 1, type: 1, createdAt: -1, _id: -1 }, name: "merchant_type_newest" });
    await this.events.createIndex({ keys: { merchantId: 1, group: 1, createdAt: -1, _id: -1 }, name: "merchant_group_newest" });
    // A checkout's events (the dashboard's timeline): `subjects` is an array, so this index is multikey.
    await this.events.createIndex({ keys: { merchantId: 1, subjects: 1, createdAt: -1, _id: -1 }, name: "merchant_subject_newest" });
    // The retention purge.
    await this.events.createIndex({ keys: { createdAt: 1 }, name: "created" });
  }

  insert(doc: EventDoc, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return insertIfAbsent(this.events, insertWithEvents(doc, audit));
  }

  find(eventId: string): Promise<EventDoc | null> {
    return this.events.findOne({ _id: eventId });
  }

  list(merchantId: string, filter: EventFilter, limit: number): Promise<EventDoc[]> {
    const query: Filter = { merchantId, createdAt: { $gte: filter.since } };
    if (filter.type) query["type"] = filter.type;
    if (filter.group) query["group"] = filter.group;
    if (filter.about) query["subjects"] = filter.about;
    if (filter.after) query.$or = olderThan("createdAt", filter.after);
    // The id breaks ties between events of the same millisecond (a stable order for paging).
    return this.events.find(query, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  async claimRedelivery(eventId: string, at: string, until: string): Promise<boolean> {
    const free = { $or: [{ redeliverableAfter: null }, { redeliverableAfter: { $lte: at } }] };
    return (await this.events.findOneAndUpdate({ _id: eventId, ...free }, { $set: { redeliverableAfter: until } })) !== null;
  }

  async releaseRedelivery(eventId: string, until: string): Promise<void> {
    await this.events.findOneAndUpdate({ _id: eventId, redeliverableAfter: until }, { $set: { redeliverableAfter: null } });
  }

  /** Deletes a batch of up to `max` events created before `before`; answers how many. */
  purge(before: string, max: number): Promise<number> {
    return this.events.deleteOldest("createdAt", before, { limit: max });
  }
}
