import type { NoticeDoc } from "../notice.entity.ts";

/** A consumer's receipts: the `payment_receipt` notices the portal shows, one per settled debit. */
export interface ReceiptsPort {
  /**
   * The consumer's receipts, newest first (of one merchant when given: a sandbox token's);
   * `after` is the last of the previous page.
   */
  listForConsumer(userId: string, merchantId: string | undefined, limit: number, after?: Pick<NoticeDoc, "_id" | "createdAt">): Promise<NoticeDoc[]>;
}
