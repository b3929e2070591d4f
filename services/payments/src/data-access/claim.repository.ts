import { insertOrGet, type Store } from "@payrail/store";
import type { ClaimRecord } from "../domain/bank-accounts/payment-method.entity.ts";
import type { ClaimsPort } from "../domain/bank-accounts/ports/claims.port.ts";

/**
 * Checkout claims, keyed by checkout id: the `_id` uniqueness, not a read-then-write, decides
 * who of several racing consumers gets the checkout (insert-or-conflict, on every instance).
 */
export class ClaimRepository implements ClaimsPort {
  constructor(private readonly store: Store) {}

  private get claims() {
    return this.store.collection<ClaimRecord>("checkout_claims");
  }

  async claim(record: ClaimRecord): Promise<string> {
    // A flow's second bank-linking call finds the claim its first made: read first, rather than
    // send an insert the store would refuse (a refused write, and its error, cost more than a read).
    const held = await this.claims.findOne({ _id: record._id });
    if (held) return held.userId;
    // Claims are never deleted, so a conflicting one is there to read.
    return (await insertOrGet(this.claims, record)).doc.userId;
  }
}
