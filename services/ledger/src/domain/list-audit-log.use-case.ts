import { AppError, normalizedWindow, requireMerchant, type AuditLogListQuery, type Principal } from "@payrail/contracts";
import { toAuditEntry, type AuditEntryDoc } from "./audit-entry.entity.ts";
import type { AuditLogPort } from "./ports/audit-log.port.ts";

/**
 * The merchant's audit log, newest first, filtered by `action` and `from` (inclusive) / `to`
 * (exclusive) on `created_at`; `starting_after` names the last entry of the previous page (one
 * that is not the merchant's is 400, as absent as an unknown one). Any of the merchant's
 * principals may read it, viewers included: it holds no secret.
 */
export async function listAuditLog(deps: { auditLog: AuditLogPort }, principal: Principal, query: AuditLogListQuery) {
  const { merchantId } = requireMerchant(principal);
  let after: AuditEntryDoc | undefined;
  if (query.starting_after !== undefined) {
    const found = await deps.auditLog.find(query.starting_after);
    if (!found || found.merchantId !== merchantId) throw new AppError("parameter_invalid", "starting_after names no audit entry of this merchant", { param: "starting_after" });
    after = found;
  }
  const page = await deps.auditLog.list({ merchantId, action: query.action, ...normalizedWindow(query) }, query.limit + 1, after);
  return { data: page.slice(0, query.limit).map(toAuditEntry), has_more: page.length > query.limit };
}
