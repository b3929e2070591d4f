import { requireMerchant, type Principal } from "@payrail/contracts";
import { toDeliveryAttempt } from "./delivery.entity.ts";
import { eventOf } from "./owned.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** One of the merchant's events: its attempts to every endpoint, newest first. */
export async function listEventDeliveries(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchant(principal);
  await eventOf(deps, merchantId, input.id);
  const attempts = await deps.deliveries.attemptsForEvent(input.id, 100);
  return { data: attempts.map((a) => ({ ...toDeliveryAttempt(a), endpoint_id: a.endpointId })) };
}
