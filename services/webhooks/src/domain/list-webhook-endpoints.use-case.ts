import { requireMerchant, type Principal } from "@payrail/contracts";
import { toWebhookEndpoint } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** The merchant's endpoints, newest first, without their secrets. */
export async function listWebhookEndpoints(deps: WebhooksDeps, principal: Principal, query: { limit: number }) {
  const { merchantId } = requireMerchant(principal);
  const page = await deps.endpoints.list(merchantId, query.limit + 1);
  return { data: page.slice(0, query.limit).map(toWebhookEndpoint), has_more: page.length > query.limit };
}
