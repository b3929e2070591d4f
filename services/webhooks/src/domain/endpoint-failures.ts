import { recordEvent } from "./fan-out.ts";
import { ownEventDoc } from "./webhook-event.entity.ts";
import { toWebhookEndpoint, type EndpointDoc } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * A failed attempt: starts the endpoint's run of failures, or, when the run has lasted
 * WEBHOOK_DISABLE_AFTER (3 days), disables the endpoint and tells the merchant with a
 * `webhook_endpoint.disabled` event (in the events API, and to their other endpoints).
 * Runs before the failed delivery is rescheduled, so a disabled endpoint gets no retry.
 */
export async function noteFailure(deps: WebhooksDeps, endpoint: EndpointDoc, at: Date): Promise<{ disabled: boolean }> {
  if (endpoint.failingSince === null) {
    await deps.endpoints.markFailing(endpoint._id, at.toISOString());
    return { disabled: false };
  }
  const failingBefore = new Date(at.getTime() - deps.policy.disableAfterMs).toISOString();
  if (endpoint.failingSince > failingBefore) return { disabled: false };
  const reason = `every delivery failed since ${endpoint.failingSince}`;
  const disabled = await deps.endpoints.disableFailing(endpoint._id, failingBefore, reason, at.toISOString());
  if (!disabled) return { disabled: false };
  deps.logger.warn({ endpointId: endpoint._id, failingSince: endpoint.failingSince }, "webhook endpoint disabled after failing");
  const object = { ...toWebhookEndpoint(disabled), disabled_reason: reason };
  await recordEvent(deps, ownEventDoc(disabled.merchantId, "webhook_endpoint.disabled", disabled.livemode, object, at.toISOString()));
  return { disabled: true };
}
