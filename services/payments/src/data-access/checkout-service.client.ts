import { getCheckoutSummaryOp, verifyLinkTokenOp, type CheckoutSummary } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { CheckoutsPort, RequestMeta } from "../domain/ports/checkouts.port.ts";

/**
 * The checkout service over RPC: payments never reads its collections. The caller's request id
 * and principal travel on, and the checkout service's business errors (401/403/404/409) come
 * back as they are.
 */
export class CheckoutServiceClient implements CheckoutsPort {
  constructor(private readonly transport: Transport) {}

  verifyLinkToken(meta: RequestMeta, checkoutId: string, linkToken: string): Promise<CheckoutSummary> {
    return this.transport.call(verifyLinkTokenOp, { checkout_id: checkoutId, link_token: linkToken }, meta);
  }

  getSummary(meta: RequestMeta, checkoutId: string): Promise<CheckoutSummary> {
    // Asked as the merchant itself, so the checkout service enforces the tenant boundary.
    return this.transport.call(getCheckoutSummaryOp, { checkout_id: checkoutId }, meta);
  }
}
