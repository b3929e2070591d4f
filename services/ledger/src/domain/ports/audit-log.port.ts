import type { AuditAction } from "@payrail/contracts";
import type { AuditEntryDoc } from "../audit-entry.entity.ts";

/** What the audit log's list asks for: merchant-scoped, newest first, after a cursor. */
export interface AuditLogFilter {
  merchantId: string;
  action?: AuditAction | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The merchants' audit entries. */
export interface AuditLogPort {
  /** Stores the entry once; false when it is there already (a repeated event). */
  insert(doc: AuditEntryDoc): Promise<boolean>;
  find(id: string): Promise<AuditEntryDoc | null>;
  list(filter: AuditLogFilter, limit: number, after?: Pick<AuditEntryDoc, "_id" | "createdAt">): Promise<AuditEntryDoc[]>;
  /** Behind each stored entry: starts a retention sweep when one is due, never waits for it. */
  sweepDue(): void;
}
