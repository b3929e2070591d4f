import type { ClaimRecord } from "../payment-method.entity.ts";

/** The consumer each checkout belongs to: one claim per checkout, the first writer wins. */
export interface ClaimsPort {
  /**
   * Inserts the claim unless the checkout has one; either way returns the user id that holds
   * the checkout. Concurrent claims of one checkout all return the same winner.
   */
  claim(record: ClaimRecord): Promise<string>;
}
