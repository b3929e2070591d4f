import { requireMerchant, type Principal } from "@payrail/contracts";
import { toDeliveryAttempt } from "./delivery.entity.ts";
import { endpointOf } from "./owned.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** An endpoint's delivery attempts, newest first: event, outcome, HTTP status, duration, next retry. */
export async function listDeliveries(deps: WebhooksDeps, principal: Principal, input: { id: string; limit: number }) {
  const { merchantId } = requireMerchant(principal);
  await endpointOf(deps, merchantId, input.id);
  const page = await deps.deliveries.attemptsOf(input.id, input.limit + 1);
  return { data: page.slice(0, input.limit).map(toDeliveryAttempt), has_more: page.length > input.limit };
}
