import { requireMerchant, type Principal } from "@payrail/contracts";
import { endpointOf } from "./owned.ts";
import { toWebhookEndpoint } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** One endpoint of the merchant, without its secret. */
export async function getWebhookEndpoint(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchant(principal);
  return toWebhookEndpoint(await endpointOf(deps, merchantId, input.id));
}
