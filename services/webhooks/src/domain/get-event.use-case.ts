import { requireMerchant, type Principal } from "@payrail/contracts";
import { eventOf } from "./owned.ts";
import { toWebhookEvent } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** One event of the merchant, as it was delivered. */
export async function getEvent(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchant(principal);
  return toWebhookEvent(await eventOf(deps, merchantId, input.id));
}
