import type { AuditAction, AuditActor, AuditingService, AuditObject, AuditOrigin, DomainEvent, Principal } from "@payrail/contracts";
import { prefixedHexId } from "./ids.ts";

/** What a use case knows of the request behind a change: its principal and the client address the gateway sent. */
export interface AuditMeta {
  principal: Principal;
  clientIp?: string | undefined;
}

/**
 * Who the audit log names for a principal: a dashboard user by id, an api-key by its public
 * prefix (never the key), the admin, or an operator for a consumer token the use case has
 * checked is one of the merchant's operators. Null for the principals whose changes the log
 * does not record (a consumer acting for themself, a service, anonymous).
 */
export function auditActor(principal: Principal, options: { userIsOperator?: boolean } = {}): AuditActor | null {
  switch (principal.kind) {
    case "merchant":
      return principal.userId !== undefined ? { type: "user", id: principal.userId } : { type: "api_key", id: principal.keyPrefix };
    case "admin":
      return { type: "admin", id: "admin" };
    case "user":
      return options.userIsOperator ? { type: "operator", id: principal.userId } : null;
    default:
      return null;
  }
}

export interface AuditChange {
  service: AuditingService;
  merchantId: string;
  action: AuditAction;
  object: AuditObject;
  /** When the change is written (the change's own time, ISO 8601 UTC with ms). */
  at: string;
  livemode?: boolean;
  /** A consumer token the use case checked is the merchant's operator. */
  userIsOperator?: boolean;
}

/**
 * The actor and client address a change's entry names, for a service that passes them on to the
 * service that writes the change for it; null when the principal is not one the log records.
 */
export function auditOrigin(meta: AuditMeta, options: { userIsOperator?: boolean } = {}): AuditOrigin | null {
  const actor = auditActor(meta.principal, options);
  return actor ? { actor, ip_address: meta.clientIp ?? null } : null;
}

/**
 * The audit entry of a change, as the internal event that rides the change's own outbox write
 * (docs/decisions/0054-audit-log.md): no change without its entry, no entry without its change.
 * An empty list when the principal is not one the log records, so a use case can always spread
 * it into its events.
 */
export function auditEvents(meta: AuditMeta, change: AuditChange): DomainEvent[] {
  return auditEventsFrom(auditOrigin(meta, { userIsOperator: change.userIsOperator ?? false }), change);
}

/**
 * The same from an actor and address already resolved, by this service or by the one that
 * served the merchant and passed them on (`AuditOrigin`); none without them. The entry's id is
 * the event's hex (`aud_…`), so the ledger stores a repeated event once.
 */
export function auditEventsFrom(origin: AuditOrigin | null | undefined, change: AuditChange): DomainEvent[] {
  if (!origin) return [];
  const id = prefixedHexId("evt_");
  return [
    {
      id,
      type: `audit_entry.${change.service}`,
      created_at: change.at,
      aggregate: { type: "audit_entry", id: `aud_${id.slice(4)}`, version: 1 },
      ...(change.livemode !== undefined ? { livemode: change.livemode } : {}),
      merchant_id: change.merchantId,
      data: { object: { actor: origin.actor, action: change.action, object: change.object, ip_address: origin.ip_address } },
    },
  ];
}
