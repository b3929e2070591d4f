import { z } from "zod";
import { DateBound } from "./books.schema.ts";

/**
 * The audit log (docs/decisions/0054-audit-log.md): who changed what of a merchant's, from
 * where. An entry is written by the service that made the change, in the same write.
 */
export const AuditActorType = z.enum(["api_key", "user", "operator", "admin"]);
export type AuditActorType = z.infer<typeof AuditActorType>;

/** The state changes the log records, as `<object>.<what happened>`. */
export const AuditAction = z.enum([
  "api_key.created",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "webhook_endpoint.secret_rotated",
  "refund.approved",
  "refund.rejected",
  "refund.payout_initiated",
  "refund_payout.simulated",
  "checkout.created",
  "subscription.cancelled",
  "review.approved",
  "review.cancelled",
  "team_member.invited",
  "team_member.role_changed",
  "team_member.removed",
  "merchant_profile.updated",
  "merchant.created",
  "merchant.funding_sources_updated",
  "team_two_factor.required",
  "team_two_factor.lifted",
  "team_member.two_factor_enabled",
  "team_member.two_factor_disabled",
  "operator.added",
  "operator.removed",
  "subscription.amount_changed",
  "annual_review.recorded",
  "checkout.link_token_created",
  "event.redelivered",
  "event.test_sent",
  "transaction.simulated",
  "payout.simulated",
  "payout.created",
]);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditActor = z.object({
  type: AuditActorType.describe("`api_key` (an integration's key), `user` (a dashboard user), `operator` (an operator's auth token) or `admin` (the operator routes or the command line)"),
  id: z.string().describe("The key's public prefix, the dashboard user's or operator's id (`usr_…`), or `admin`"),
});
export type AuditActor = z.infer<typeof AuditActor>;

export const AuditObject = z.object({
  type: z.string().describe("What was changed: `api_key`, `webhook_endpoint`, `refund`, `checkout`, `subscription`, `review`, `team_member`, `merchant`, `operator`, `annual_review`, `event`, `transaction`, `payout`"),
  id: z.string().describe("Its id (for a key, its public prefix; for a subscription, its checkout's `chk_…`; for an operator, `opr_…`, never the phone)"),
});
export type AuditObject = z.infer<typeof AuditObject>;

/** `aud_` + 32 lowercase hex: the hex of the event that carried the entry, so a repeated event is the same entry. */
export const AuditEntryId = z.string().regex(/^aud_[0-9a-f]{32}$/, "must be aud_ and 32 lowercase hex");

export const AuditEntry = z.object({
  id: AuditEntryId.describe("The entry (`aud_…`)"),
  actor: AuditActor.describe("Who made the change"),
  action: AuditAction.describe("What was done"),
  object: AuditObject.describe("What it was done to"),
  ip_address: z.string().nullable().describe("The client address of the request, as the gateway saw it; null when the change came from the command line"),
  created_at: z.string().describe("When the change was written (ISO 8601 UTC)"),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogListQuery = z.object({
  action: AuditAction.optional().describe("Only this action"),
  from: DateBound.optional().describe("Only entries at or after this (a date or an ISO 8601 time)"),
  to: DateBound.optional().describe("Only entries before this (a date or an ISO 8601 time)"),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("At most this many (1–100, default 20)"),
  starting_after: AuditEntryId.optional().describe("The last entry of the previous page: the page after it"),
});
export type AuditLogListQuery = z.infer<typeof AuditLogListQuery>;

export const AuditLogListResponse = z.object({
  data: z.array(AuditEntry).describe("The entries, newest first"),
  has_more: z.boolean().describe("Whether more follow (ask again with `starting_after`)"),
});
export type AuditLogListResponse = z.infer<typeof AuditLogListResponse>;
