import type { RefundStatus } from "@payrail/contracts";
import type { RefundDoc } from "../refund.entity.ts";

/** Fields a move may write besides the status (never what the refund is for). */
export type RefundChanges = Partial<Pick<RefundDoc, "refundTransactionId" | "failureCode">>;

/** Storage of refund records; every change is one conditional write. */
export interface RefundsPort {
  insert(doc: RefundDoc): Promise<void>;
  find(refundId: string): Promise<RefundDoc | null>;
  /** The user's refunds, newest first. */
  listForUser(userId: string, limit: number): Promise<RefundDoc[]>;
  /**
   * Moves the refund from `from` to `to` (with `changes`) in one conditional write; null when
   * it was no longer in `from`, so of racing moves exactly one wins.
   */
  move(refundId: string, from: RefundStatus, to: RefundStatus, changes: RefundChanges, at: string): Promise<RefundDoc | null>;
  /** Records the refund transfer's provider id once; null when one was recorded already. */
  recordTransferId(refundId: string, transferId: string, at: string): Promise<RefundDoc | null>;
}
