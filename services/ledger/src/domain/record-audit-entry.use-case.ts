import { AUDITING_SERVICES, type AuditEntrySnapshot, type EventOf } from "@payrail/contracts";
import type { AuditLogPort } from "./ports/audit-log.port.ts";

/** The event types that carry audit entries, one per service that writes them. */
export const AUDIT_EVENTS = AUDITING_SERVICES.map((service) => `audit_entry.${service}` as const);

type AuditEntryEvent = EventOf<(typeof AUDIT_EVENTS)[number]>;

/**
 * Stores the audit entry an event carries, under the id the writing service gave it (the
 * event's hex), so a repeated or replayed event stores nothing new. The entry's time is the
 * change's (`created_at`), not the moment it arrived.
 */
export async function recordAuditEntry(deps: { auditLog: AuditLogPort }, event: AuditEntryEvent): Promise<void> {
  const entry: AuditEntrySnapshot = event.data.object;
  await deps.auditLog.insert({
    _id: event.aggregate.id,
    merchantId: event.merchant_id,
    actor: entry.actor,
    action: entry.action,
    object: entry.object,
    ipAddress: entry.ip_address,
    createdAt: event.created_at,
  });
  deps.auditLog.sweepDue();
}
