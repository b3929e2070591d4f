import { requireMerchantWriter, type Principal } from "@payrail/contracts";
import { recordEvent } from "./fan-out.ts";
import { sampleObject } from "./sample-objects.ts";
import { ownEventDoc, toWebhookEvent } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Sandbox test event: an event of the type with a sample object, kept and delivered like any
 * other (it shows in the events API too, so `payrail listen` forwards it).
 */
export async function sendTestEvent(deps: WebhooksDeps, principal: Principal, input: { type: string }) {
  const { merchantId } = requireMerchantWriter(principal);
  const at = deps.now().toISOString();
  const doc = ownEventDoc(merchantId, input.type, deps.livemode, sampleObject(input.type, at), at);
  await recordEvent(deps, doc);
  return toWebhookEvent(doc);
}
