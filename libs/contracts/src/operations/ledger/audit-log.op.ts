import { AuditLogListQuery, AuditLogListResponse } from "../../http/audit-log.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's audit log, newest first, with its filters. */
export const listAuditLogOp = defineOperation("ledger.listAuditLog", AuditLogListQuery, AuditLogListResponse);
