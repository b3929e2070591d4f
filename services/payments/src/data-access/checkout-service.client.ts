import { getCheckoutSummaryOp, onOwnAccount, verifyLinkTokenOp, type CheckoutSummary } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { CheckoutsPort, RequestMeta } from "../domain/shared/ports/checkouts.port.ts";

/**
 * The checkout service over RPC: payments never reads its collections. Payments asks on its
 * own account (the link token is the consumer's proof; the merchant's ownership of a checkout
 * is checked by the use case that asks), and the checkout service's business errors
 * (401/403/404/409) come back as they are.
 */
export class CheckoutServiceClient implements CheckoutsPort {
  constructor(private readonly transport: Transport) {}

  verifyLinkToken(meta: RequestMeta, checkoutId: string | undefined, linkToken: string): Promise<CheckoutSummary> {
    return this.transport.call(verifyLinkTokenOp, { ...(checkoutId !== undefined ? { checkout_id: checkoutId } : {}), link_token: linkToken }, onOwnAccount("payments", meta));
  }

  getSummary(meta: RequestMeta, checkoutId: string): Promise<CheckoutSummary> {
    return this.transport.call(getCheckoutSummaryOp, { checkout_id: checkoutId }, onOwnAccount("payments", meta));
  }
}
