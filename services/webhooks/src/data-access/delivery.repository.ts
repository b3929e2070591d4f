import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, olderThan, type Filter, type Store } from "@payrail/store";
import type { AttemptDoc, DeliveryDoc } from "../domain/delivery.entity.ts";
import type { DeliveriesPort, DeliveryOutcome } from "../domain/ports/deliveries.port.ts";

export const DELIVERIES_COLLECTION = "webhook_deliveries";
export const ATTEMPTS_COLLECTION = "webhook_attempts";

/** Deliveries (`_id` = event id . endpoint id [. redelivery]) and their attempts; a redelivery's first delivery carries its audit entry (the outbox). */
export class DeliveryRepository implements DeliveriesPort {
  constructor(private readonly store: Store) {}

  private get deliveries() {
    return this.store.collection<DeliveryDoc>(DELIVERIES_COLLECTION);
  }

  private get attempts() {
    return this.store.collection<AttemptDoc>(ATTEMPTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The workers' poll: pending deliveries by due time.
    await this.deliveries.createIndex({ keys: { status: 1, dueAt: 1 }, name: "status_due" });
    await this.deliveries.createIndex({ keys: { createdAt: 1 }, name: "created" });
    await this.attempts.createIndex({ keys: { endpointId: 1, attemptedAt: -1, _id: -1 }, name: "endpoint_newest" });
    await this.attempts.createIndex({ keys: { attemptedAt: 1 }, name: "attempted" });
    // An event's attempts (the dashboard's checkout page, GET /events/{id}/deliveries).
    await this.attempts.createIndex({ keys: { eventId: 1, attemptedAt: -1 }, name: "event_newest" });
  }

  insert(doc: DeliveryDoc, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return insertIfAbsent(this.deliveries, insertWithEvents(doc, audit));
  }

  due(now: string, skipEndpoints: string[], limit: number): Promise<DeliveryDoc[]> {
    const filter: Filter = { status: "pending", dueAt: { $lte: now } };
    if (skipEndpoints.length > 0) filter["endpointId"] = { $nin: skipEndpoints };
    return this.deliveries.find(filter, { sort: { dueAt: 1 }, limit });
  }

  claim(delivery: DeliveryDoc, leaseId: string, leaseUntil: string): Promise<DeliveryDoc | null> {
    // The due time it was seen with: of workers racing for it, the first write moves it and wins.
    return this.deliveries.findOneAndUpdate(
      { _id: delivery._id, status: "pending", dueAt: delivery.dueAt },
      { $set: { dueAt: leaseUntil, leaseId } },
    );
  }

  async renew(deliveryId: string, leaseId: string, until: string): Promise<boolean> {
    // The claim's end is the delivery's due time: moving it keeps other workers off.
    return (await this.deliveries.findOneAndUpdate({ _id: deliveryId, leaseId, status: "pending" }, { $set: { dueAt: until } })) !== null;
  }

  finish(deliveryId: string, leaseId: string, outcome: DeliveryOutcome): Promise<DeliveryDoc | null> {
    return this.deliveries.findOneAndUpdate({ _id: deliveryId, leaseId }, { $set: { ...outcome, leaseId: null } });
  }

  async recordAttempt(doc: AttemptDoc): Promise<void> {
    await insertIfAbsent(this.attempts, doc);
  }

  findAttempt(attemptId: string): Promise<AttemptDoc | null> {
    return this.attempts.findOne({ _id: attemptId });
  }

  attemptsForEvent(eventId: string, limit: number): Promise<AttemptDoc[]> {
    return this.attempts.find({ eventId }, { sort: { attemptedAt: -1 }, limit });
  }

  attemptsOf(endpointId: string, limit: number, after?: Pick<AttemptDoc, "_id" | "attemptedAt">): Promise<AttemptDoc[]> {
    const filter: Filter = { endpointId };
    if (after) filter.$or = olderThan("attemptedAt", after);
    return this.attempts.find(filter, { sort: { attemptedAt: -1, _id: -1 }, limit });
  }

  /**
   * Deletes a batch of up to `max` deliveries and one of attempts from before `before` (past the
   * events' retention); answers the larger batch: at `max`, more may be waiting.
   */
  async purge(before: string, max: number): Promise<number> {
    const deliveries = await this.deliveries.deleteOldest("createdAt", before, { limit: max });
    const attempts = await this.attempts.deleteOldest("attemptedAt", before, { limit: max });
    return Math.max(deliveries, attempts);
  }
}
