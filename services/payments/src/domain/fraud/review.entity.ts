import type { DomainEvent, Review, ReviewStatus } from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";
import { envelope } from "../shared/payment-events.ts";
import type { RuleHit } from "./fraud-rules.ts";
import { amountOf } from "../transactions/transaction.entity.ts";

export interface ReviewActor {
  type: "api_key" | "user" | "system";
  id: string;
}

/**
 * A debit held for the merchant's review (`_id` = `rev_…`, derived from the debit's
 * transaction_uuid, so a resumed hold finds the review it opened). Each change of `status` is
 * one conditional write on `open`, with its review.* event in the outbox.
 */
export interface ReviewRecord extends OutboxFields {
  _id: string;
  merchantId: string;
  checkoutId: string;
  transactionUuid: string;
  kind: "first_charge" | "renewal";
  amountCents: number;
  currency: string;
  status: ReviewStatus;
  rules: RuleHit[];
  openedAt: string;
  expiresAt: string;
  closedAt: string | null;
  closedBy: ReviewActor | null;
  /**
   * Whether the outcome reached the debit (the transfer sent, or the record cancelled): false
   * from the decision until then, null while open. The sweep finishes what a crash left false.
   */
  applied: boolean | null;
  /** `openedAt|_id`: the list's order and cursor, one indexed field. */
  sortKey: string;
  version: number;
}

export function toReview(doc: ReviewRecord): Review {
  return {
    id: doc._id,
    object: "review",
    checkout_id: doc.checkoutId,
    transaction_uuid: doc.transactionUuid,
    kind: doc.kind,
    amount: amountOf(doc.amountCents),
    currency: doc.currency,
    status: doc.status,
    rules: doc.rules,
    opened_at: doc.openedAt,
    expires_at: doc.expiresAt,
    closed_at: doc.closedAt,
    closed_by: doc.closedBy,
  };
}

/** review.opened / review.closed: the review as the API shows it after the change. */
export function reviewEvent(type: "review.opened" | "review.closed", after: ReviewRecord, livemode: boolean): DomainEvent {
  return envelope(type, { type: "review", id: after._id, version: after.version }, after.merchantId, after.closedAt ?? after.openedAt, toReview(after), livemode);
}
