import type { MerchantPrincipal } from "@payrail/contracts";
import type { GatewayContext } from "../gateway-context.ts";

/**
 * The principal for a read the hosted page makes on the checkout's merchant's account (its
 * public name; in sandbox, the simulated account picker), once the consumer has shown the
 * merchant's link token for that checkout. Scoped to that one merchant, named so in logs: the
 * page has no api-key, and the link token is the merchant's own grant.
 */
export function onBehalfOfMerchant(ctx: GatewayContext, merchantId: string): MerchantPrincipal {
  return { kind: "merchant", merchantId, keyPrefix: "hosted_page", livemode: !ctx.sandbox };
}
