import type { AuditAction, AuditActor, AuditEntry, AuditObject } from "@payrail/contracts";

/** An audit entry as stored (`_id` = `aud_` + the hex of the event that carried it). */
export interface AuditEntryDoc {
  _id: string;
  merchantId: string;
  actor: AuditActor;
  action: AuditAction;
  object: AuditObject;
  ipAddress: string | null;
  /** ISO 8601 UTC with ms: when the change was written (the event's `created_at`). */
  createdAt: string;
}

/** How long the log keeps an entry (two years of 365 days): the retention sweep deletes older ones. */
export const AUDIT_LOG_KEEP_MS = 2 * 365 * 24 * 60 * 60 * 1000;

export function toAuditEntry(doc: AuditEntryDoc): AuditEntry {
  return { id: doc._id, actor: doc.actor, action: doc.action, object: doc.object, ip_address: doc.ipAddress, created_at: doc.createdAt };
}
