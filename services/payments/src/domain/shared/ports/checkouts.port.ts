import type { CheckoutSummary, Principal } from "@payrail/contracts";

/** The request payments serves: its id travels on to the services payments asks (on its own account). */
export interface RequestMeta {
  requestId: string;
  principal: Principal;
}

/**
 * What payments asks the checkout service, which owns checkouts and merchant link tokens: two
 * queries. Payments never tells checkout of its own changes; checkout follows its events.
 */
export interface CheckoutsPort {
  /**
   * The checkout, if `linkToken` is a valid merchant link token of it: else AppError
   * `link_token_invalid` / `link_token_expired` (401) or `link_token_mismatch` (403). Without
   * `checkoutId`: the checkout the token was generated for.
   */
  verifyLinkToken(meta: RequestMeta, checkoutId: string | undefined, linkToken: string): Promise<CheckoutSummary>;
  /** The checkout, whoever owns it: the caller checks that it is the merchant's own. */
  getSummary(meta: RequestMeta, checkoutId: string): Promise<CheckoutSummary>;
}
