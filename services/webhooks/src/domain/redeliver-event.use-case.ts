import { AppError, requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, prefixedHexId, type AuditMeta } from "@payrail/runtime";
import { fanOut } from "./fan-out.ts";
import { eventOf } from "./owned.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** One redelivery per event per this long (docs/api-notes.md, Events and webhooks). */
export const REDELIVER_INTERVAL_MS = 60_000;

/**
 * Sends an event again to every enabled endpoint of the merchant that takes its type: new
 * deliveries (with their own retries), the same `webhook-id`. Answers the endpoints. Once per
 * event a minute: each redelivery is a request to every endpoint, so without a limit one
 * api-key could turn the 600 calls a minute it may make into 600 × 16 requests at targets of
 * its choosing. The turn is one conditional write on the event; a refusal is 429 with Retry-After;
 * a redelivery that reached no endpoint gives its turn back. Its audit entry rides the first new
 * delivery: a refused or empty redelivery records nothing.
 */
export async function redeliverEvent(deps: WebhooksDeps, meta: AuditMeta, input: { id: string }) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const event = await eventOf(deps, merchantId, input.id);
  const now = deps.now().getTime();
  const until = new Date(now + REDELIVER_INTERVAL_MS).toISOString();
  if (!(await deps.events.claimRedelivery(event._id, new Date(now).toISOString(), until))) {
    const turn = (await deps.events.find(event._id))?.redeliverableAfter;
    const retryAfter = Math.max(1, Math.ceil(((turn ? Date.parse(turn) : now + REDELIVER_INTERVAL_MS) - now) / 1000));
    throw new AppError("rate_limited", `event ${event._id} was redelivered less than a minute ago; retry in ${retryAfter} s`, { param: "id", retryAfter });
  }
  const audit = auditEvents(meta, { service: "webhooks", merchantId, action: "event.redelivered", object: { type: "event", id: event._id }, at: new Date(now).toISOString(), livemode: deps.livemode });
  const endpoints = await fanOut(deps, event, prefixedHexId("r"), audit);
  // Nothing was sent (no enabled endpoint takes it): the turn stays free for when one does.
  if (endpoints.length === 0) await deps.events.releaseRedelivery(event._id, until);
  return { id: event._id, webhook_endpoints: endpoints };
}
