import type { DomainEvent } from "@payrail/contracts";
import type { EndpointDoc } from "../webhook-endpoint.entity.ts";

export type EndpointChanges = Partial<
  Pick<EndpointDoc, "url" | "enabledEvents" | "description" | "status" | "failingSince" | "disabledReason" | "updatedAt">
>;

/** Webhook endpoints; every change is one conditional write. */
export interface EndpointsPort {
  /** Inserts `doc` with its audit entry (one write), unless an endpoint already holds its id: then answers that one. */
  insert(doc: EndpointDoc, audit: readonly DomainEvent[]): Promise<{ inserted: boolean; doc: EndpointDoc }>;
  find(endpointId: string): Promise<EndpointDoc | null>;
  /** The merchant's endpoints, newest first. */
  list(merchantId: string, limit: number): Promise<EndpointDoc[]>;
  /** The merchant's enabled endpoints (fan-out). */
  enabledOf(merchantId: string): Promise<EndpointDoc[]>;
  /** Applies `changes` with their audit entry when the endpoint is the merchant's; null when it is not (or is gone). */
  update(merchantId: string, endpointId: string, changes: EndpointChanges, audit: readonly DomainEvent[]): Promise<EndpointDoc | null>;
  /** Replaces the secret when it is still `expectedSecret`, keeping that one as the previous. */
  rotate(endpointId: string, expectedSecret: string, secret: string, previousExpiresAt: string, at: string, audit: readonly DomainEvent[]): Promise<EndpointDoc | null>;
  /** Removes the merchant's endpoint with its audit entry (one write); false when it is not the merchant's (or is gone). */
  remove(merchantId: string, endpointId: string, audit: readonly DomainEvent[]): Promise<boolean>;
  /** Notes the first failure of a run of failures (no-op when one is noted). */
  markFailing(endpointId: string, at: string): Promise<void>;
  /** Ends a run of failures. */
  markHealthy(endpointId: string): Promise<void>;
  /** Disables an enabled endpoint failing since at least `failingBefore`; null when another did, or it recovered. */
  disableFailing(endpointId: string, failingBefore: string, reason: string, at: string): Promise<EndpointDoc | null>;
}
