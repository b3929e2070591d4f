import type { DomainEvent } from "@payrail/contracts";
import type { AttemptDoc, DeliveryDoc } from "../delivery.entity.ts";

/** What an attempt's end writes on its delivery. */
export type DeliveryOutcome = Pick<DeliveryDoc, "status" | "attempts" | "dueAt" | "updatedAt">;

/** Deliveries (one per event and endpoint, plus redeliveries) and their attempts. */
export interface DeliveriesPort {
  /** Creates a delivery; false when it exists (the same event fanned out twice). */
  /** Stores the delivery (with a redelivery's audit entry, in the same insert); false when it is stored already. */
  insert(doc: DeliveryDoc, audit?: readonly DomainEvent[]): Promise<boolean>;
  /** Pending deliveries due by `now`, oldest due first, skipping the listed endpoints. */
  due(now: string, skipEndpoints: string[], limit: number): Promise<DeliveryDoc[]>;
  /** Claims a due delivery until `leaseUntil`; null when another worker claimed it first. */
  claim(delivery: DeliveryDoc, leaseId: string, leaseUntil: string): Promise<DeliveryDoc | null>;
  /** Moves the end of the claim `leaseId` holds to `until`: false when it holds it no more. */
  renew(deliveryId: string, leaseId: string, until: string): Promise<boolean>;
  /** Ends the claim with `outcome`; null when the lease was lost (another worker took over). */
  finish(deliveryId: string, leaseId: string, outcome: DeliveryOutcome): Promise<DeliveryDoc | null>;
  recordAttempt(doc: AttemptDoc): Promise<void>;
  findAttempt(attemptId: string): Promise<AttemptDoc | null>;
  /** An endpoint's attempts, newest first; `after` is the last attempt of the previous page. */
  /** An event's attempts to every endpoint, newest first, at most `limit`. */
  attemptsForEvent(eventId: string, limit: number): Promise<AttemptDoc[]>;
  attemptsOf(endpointId: string, limit: number, after?: Pick<AttemptDoc, "_id" | "attemptedAt">): Promise<AttemptDoc[]>;
}
