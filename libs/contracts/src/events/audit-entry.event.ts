import { z } from "zod";
import { AuditAction, AuditActor, AuditObject } from "../http/audit-log.schema.ts";
import { DomainEvent, EventAggregate } from "./domain-event.ts";

/** An audit entry as its event carries it: the entry minus its id and time, which are the event's. */
export const AuditEntrySnapshot = z.object({
  actor: AuditActor,
  action: AuditAction,
  object: AuditObject,
  ip_address: z.string().max(64).nullable(),
});
export type AuditEntrySnapshot = z.infer<typeof AuditEntrySnapshot>;

/**
 * Who made a change and from where, as the service that served the merchant resolved them, for
 * the service that writes the change on its behalf (refunds → payments' refund payout
 * simulation): the principal stays with the first service, and a service's own envelope carries
 * neither the merchant nor a believed client address.
 */
export const AuditOrigin = AuditEntrySnapshot.pick({ actor: true, ip_address: true });
export type AuditOrigin = z.infer<typeof AuditOrigin>;

/**
 * Internal (a service → the ledger, never shown as an event or sent to a webhook): an audit entry,
 * written by the service that made the change in the same write. One type per publishing
 * service, so the broker's sender check holds for audit entries too: identity's user cannot
 * publish an entry about a refund.
 */
function auditEntryEvent<S extends string>(service: S) {
  return DomainEvent.extend({
    type: z.literal(`audit_entry.${service}` as const),
    aggregate: EventAggregate.extend({ type: z.literal("audit_entry") }),
    data: z.object({ object: AuditEntrySnapshot }),
  });
}

export const IdentityAuditEntryEvent = auditEntryEvent("identity");
export const WebhooksAuditEntryEvent = auditEntryEvent("webhooks");
export const RefundsAuditEntryEvent = auditEntryEvent("refunds");
export const CheckoutAuditEntryEvent = auditEntryEvent("checkout");
export const PaymentsAuditEntryEvent = auditEntryEvent("payments");
export const LedgerAuditEntryEvent = auditEntryEvent("ledger");

/** The services that write audit entries, each under its own event type. */
export const AUDITING_SERVICES = ["identity", "webhooks", "refunds", "checkout", "payments", "ledger"] as const;
export type AuditingService = (typeof AUDITING_SERVICES)[number];
