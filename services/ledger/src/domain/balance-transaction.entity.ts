import { createHash } from "node:crypto";
import { centsToDecimal, type BalanceTransaction, type BalanceTransactionType } from "@payrail/contracts";

/**
 * One money movement of a merchant (`_id` = `btx_` + 32 hex derived from its type and source,
 * so the one movement is one row however many events report it). Cents inside, signed.
 */
export interface BalanceTransactionDoc {
  _id: string;
  merchantId: string;
  type: BalanceTransactionType;
  /** Signed cents: positive adds to the balance. */
  amountCents: number;
  currency: string;
  /** The transaction record (`sc-…`) or the refund (`rfd_…`). */
  source: string;
  /** The event that first reported it. */
  eventId: string;
  createdAt: string;
  availableAt: string;
  payoutId: string | null;
  /**
   * The fencing token of the last payout run that put the row in a payout or took it out (absent
   * until one did): a run holding a smaller token (its lease ran out while it stalled) may no
   * longer move the row, so its late writes match nothing.
   */
  fence?: number;
  /**
   * Whether the merchant's running total includes it. The total counts it first (one conditional
   * write on the summary), then this flag follows; the summary's `lastBtx` names the one row
   * that may be counted without the flag yet (see record-entry.use-case.ts).
   */
  counted: boolean;
}

/** The row's id: the same movement (type and source) always gets the same one. */
export function balanceTransactionId(type: BalanceTransactionType, source: string): string {
  return `btx_${createHash("sha256").update(`${type}:${source}`).digest("hex").slice(0, 32)}`;
}

/** The API's view; `status` follows from `available_at` and the time of the read. */
export function toBalanceTransaction(doc: BalanceTransactionDoc, now: string): BalanceTransaction {
  return {
    id: doc._id,
    type: doc.type,
    amount: centsToDecimal(doc.amountCents),
    currency: doc.currency,
    status: doc.availableAt <= now ? "available" : "pending",
    source: doc.source,
    created_at: doc.createdAt,
    available_at: doc.availableAt,
    payout_id: doc.payoutId,
  };
}
