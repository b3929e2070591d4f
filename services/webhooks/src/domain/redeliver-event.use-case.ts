import { requireMerchant, type Principal } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { fanOut } from "./fan-out.ts";
import { eventOf } from "./owned.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Sends an event again to every enabled endpoint of the merchant that takes its type: new
 * deliveries (with their own retries), the same `webhook-id`. Answers the endpoints.
 */
export async function redeliverEvent(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchant(principal);
  const event = await eventOf(deps, merchantId, input.id);
  const endpoints = await fanOut(deps, event, prefixedHexId("r"));
  return { id: event._id, webhook_endpoints: endpoints };
}
