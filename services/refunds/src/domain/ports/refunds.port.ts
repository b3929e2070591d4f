import type { DomainEvent, RefundStatus } from "@payrail/contracts";
import type { RefundDoc } from "../refund.entity.ts";

/** Fields a move may write besides the status (never what the refund is for). */
export type RefundChanges = Partial<Pick<RefundDoc, "attempt" | "refundTransactionId" | "failureCode" | "failureReason">>;

/** One status change of a refund, with the event it publishes. */
export interface RefundMove {
  refundId: string;
  from: RefundStatus;
  attempt: number;
  to: RefundStatus;
  changes: RefundChanges;
  at: string;
  event: DomainEvent;
  /** The move's audit entry, when a merchant's principal made it: stored in the same write. */
  audit?: readonly DomainEvent[];
}

/** Filters of the merchant's refund list; `after` is the last refund of the previous page. */
export interface MerchantRefundFilter {
  status?: RefundStatus | undefined;
  transactionUuid?: string | undefined;
  /** Requested in [from, to): ISO 8601 UTC. */
  from?: string | undefined;
  to?: string | undefined;
  /** The amount in [minCents, maxCents], both inclusive. */
  minCents?: number | undefined;
  maxCents?: number | undefined;
  after?: Pick<RefundDoc, "_id" | "createdAt"> | undefined;
}

/** Storage of refund records; every change is one conditional write. */
export interface RefundsPort {
  /** Writes a new refund together with the event of its creation (one write). */
  /** Inserts `doc` with its event, unless a refund already holds its id: then answers that one. */
  insert(doc: RefundDoc, event: DomainEvent): Promise<{ inserted: boolean; doc: RefundDoc }>;
  find(refundId: string): Promise<RefundDoc | null>;
  findMany(refundIds: string[]): Promise<RefundDoc[]>;
  /** The user's refunds, newest first; of `merchantId` only when given (a sandbox token's merchant). */
  listForUser(userId: string, limit: number, merchantId?: string): Promise<RefundDoc[]>;
  /** The merchant's refunds, newest first. */
  listForMerchant(merchantId: string, filter: MerchantRefundFilter, limit: number): Promise<RefundDoc[]>;
  /**
   * Moves the refund from `from` on payout `attempt` to `to` (with `changes`), counts the
   * change in its `version` and stores `event` with it, all in one conditional write; null
   * when it was no longer there, so of racing moves exactly one wins (and writes its event).
   */
  move(move: RefundMove): Promise<RefundDoc | null>;
  /**
   * Marks a completed refund over-returned (`overReturnedAt`), counts it in its `version` and
   * stores `event` with it, in one conditional write; null when it is not completed or already
   * marked, so of racing marks exactly one writes its event.
   */
  markOverReturned(refundId: string, at: string, event: DomainEvent): Promise<RefundDoc | null>;
  /** Records payout `attempt`'s provider transfer id once; null when one was recorded, or the refund moved on. */
  recordTransferId(refundId: string, attempt: number, transferId: string, at: string): Promise<RefundDoc | null>;
}
