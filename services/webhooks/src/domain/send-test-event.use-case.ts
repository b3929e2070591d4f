import { requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { recordEvent } from "./fan-out.ts";
import { sampleObject } from "./sample-objects.ts";
import { ownEventDoc, toWebhookEvent } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Sandbox test event: an event of the type with a sample object, kept and delivered like any
 * other (it shows in the events API too, so `payrail listen` forwards it). The event's insert
 * carries its audit entry.
 */
export async function sendTestEvent(deps: WebhooksDeps, meta: AuditMeta, input: { type: string }) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const at = deps.now().toISOString();
  const doc = ownEventDoc(merchantId, input.type, deps.livemode, sampleObject(input.type, at), at);
  const audit = auditEvents(meta, { service: "webhooks", merchantId, action: "event.test_sent", object: { type: "event", id: doc._id }, at, livemode: deps.livemode });
  await recordEvent(deps, doc, audit);
  return toWebhookEvent(doc);
}
