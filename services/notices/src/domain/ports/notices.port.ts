import type { NoticeDoc } from "../notice.entity.ts";

/** What an attempt's end writes on its notice. */
export type NoticeOutcome = Pick<NoticeDoc, "status" | "attempts" | "dueAt" | "lastError" | "providerMessageId" | "sentAt">;

/** Notices, by merchant and checkout, and the queue of those to send. */
export interface NoticesPort {
  /** Writes a notice; false when it exists (its cause was handled before). */
  insert(doc: NoticeDoc): Promise<boolean>;
  /** Queued notices due by `now`, oldest due first. */
  due(now: string, limit: number): Promise<NoticeDoc[]>;
  /** Claims a due notice until `leaseUntil`; null when another worker claimed it first. */
  claim(notice: NoticeDoc, leaseId: string, leaseUntil: string): Promise<NoticeDoc | null>;
  /** Moves the end of the claim `leaseId` holds: false when it holds it no more. */
  renew(noticeId: string, leaseId: string, until: string): Promise<boolean>;
  /** Ends the claim with `outcome`, only while still queued under it; null when the lease was lost. */
  finish(noticeId: string, leaseId: string, outcome: NoticeOutcome): Promise<NoticeDoc | null>;
  /** The merchant's notices (of one checkout when given), newest first; `after` is the last of the previous page. */
  list(merchantId: string, checkoutId: string | undefined, limit: number, after?: Pick<NoticeDoc, "_id" | "createdAt">): Promise<NoticeDoc[]>;
  find(noticeId: string): Promise<NoticeDoc | null>;
}
