/**
 * Which refund holds each transaction (`_id` = transaction_uuid): at most one refund that is
 * not rejected or failed per transaction. A partial unique index would say this directly, but
 * FerretDB has none, so the `_id` uniqueness of a claim decides among racing requests.
 */
export interface RefundClaim {
  _id: string;
  refundId: string;
  claimedAt: string;
}

export interface RefundClaimsPort {
  /** Inserts the claim; false when the transaction is claimed already (by any refund). */
  claim(claim: RefundClaim): Promise<boolean>;
  find(transactionUuid: string): Promise<RefundClaim | null>;
  /** Deletes the claim only if `refundId` holds it (a newer refund's claim stays). */
  release(transactionUuid: string, refundId: string): Promise<void>;
}
