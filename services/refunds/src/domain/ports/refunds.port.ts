import type { RefundStatus } from "@payrail/contracts";
import type { RefundDoc } from "../refund.entity.ts";

/** Fields a move may write besides the status (never what the refund is for). */
export type RefundChanges = Partial<Pick<RefundDoc, "attempt" | "refundTransactionId" | "failureCode" | "failureReason">>;

/** Filters of the merchant's refund list; `after` is the last refund of the previous page. */
export interface MerchantRefundFilter {
  status?: RefundStatus | undefined;
  transactionUuid?: string | undefined;
  after?: Pick<RefundDoc, "_id" | "createdAt"> | undefined;
}

/** Storage of refund records; every change is one conditional write. */
export interface RefundsPort {
  insert(doc: RefundDoc): Promise<void>;
  find(refundId: string): Promise<RefundDoc | null>;
  findMany(refundIds: string[]): Promise<RefundDoc[]>;
  /** The user's refunds, newest first. */
  listForUser(userId: string, limit: number): Promise<RefundDoc[]>;
  /** The merchant's refunds, newest first. */
  listForMerchant(merchantId: string, filter: MerchantRefundFilter, limit: number): Promise<RefundDoc[]>;
  /**
   * Moves the refund from `from` (on payout `attempt`, when given) to `to` (with `changes`) in
   * one conditional write; null when it was no longer there, so of racing moves exactly one wins.
   */
  move(refundId: string, from: RefundStatus, to: RefundStatus, changes: RefundChanges, at: string, attempt?: number): Promise<RefundDoc | null>;
  /** Records payout `attempt`'s provider transfer id once; null when one was recorded, or the refund moved on. */
  recordTransferId(refundId: string, attempt: number, transferId: string, at: string): Promise<RefundDoc | null>;
}
