import { createHash } from "node:crypto";
import { centsToDecimal, type Payout } from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";

/**
 * Where a payout stands. `open`: made, its balance transactions being gathered (amount not yet
 * fixed, not shown); `created`: amount fixed and taken from the balance (its `payout` row),
 * its transfer asked for; then `paid` or `failed` as the provider settles it.
 */
export type PayoutStage = "open" | "created" | "paid" | "failed";

/**
 * A merchant's payout of its available balance to its bank (docs/decisions/0050-payouts.md).
 * `_id` derives from the merchant and the UTC day, so however many replicas or calls run the
 * pass on a day, a merchant gets one payout that day; it is also the provider's idempotency key.
 */
export interface PayoutDoc extends OutboxFields {
  _id: string;
  merchantId: string;
  /** The UTC day (YYYY-MM-DD) of the run that made it. */
  day: string;
  stage: PayoutStage;
  /** The sum of the balance transactions it contains; 0 while `open`. */
  amountCents: number;
  currency: string;
  /** It gathers the available rows whose `available_at` is not after this (its making's time). */
  cutoff: string;
  transferId: string | null;
  failureCode: string | null;
  failureReason: string | null;
  /**
   * The fencing token of the payout run working on it while `open` (its merchant's payout lease,
   * which grows with each taking): fixing its amount or taking it apart requires this token, so a
   * run whose lease ran out while it stalled cannot fix an amount from a stale sum.
   */
  fence: number;
  /** Counts the payout's writes: its events' aggregate version. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The payout of `merchantId` on UTC day `day`: the same pair always gets the same id. */
export function payoutIdFor(merchantId: string, day: string): string {
  return `po_${createHash("sha256").update(`payout:${merchantId}:${day}`).digest("hex").slice(0, 32)}`;
}

/** The API's view. */
export function toPayout(doc: PayoutDoc): Payout {
  return {
    id: doc._id,
    amount: centsToDecimal(doc.amountCents),
    currency: doc.currency,
    status: doc.stage === "paid" || doc.stage === "failed" ? doc.stage : "pending",
    day: doc.day,
    transfer_id: doc.transferId,
    failure_code: doc.failureCode,
    failure_reason: doc.failureReason,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  };
}
