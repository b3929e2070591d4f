import { insertIfAbsent, type Store } from "@payrail/store";
import type { RefundClaim, RefundClaimsPort } from "../domain/ports/refund-claims.port.ts";

/** Refund claims, keyed by transaction_uuid: the `_id` uniqueness picks one of racing requests. */
export class RefundClaimRepository implements RefundClaimsPort {
  constructor(private readonly store: Store) {}

  private get claims() {
    return this.store.collection<RefundClaim>("refund_claims");
  }

  claim(claim: RefundClaim): Promise<boolean> {
    return insertIfAbsent(this.claims, claim);
  }

  find(transactionUuid: string): Promise<RefundClaim | null> {
    return this.claims.findOne({ _id: transactionUuid });
  }

  async release(transactionUuid: string, refundId: string): Promise<void> {
    await this.claims.deleteOne({ _id: transactionUuid, refundId });
  }
}
