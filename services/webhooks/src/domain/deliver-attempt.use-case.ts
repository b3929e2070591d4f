import { nextRetryDelayMs, type LeaseHeartbeat } from "@payrail/runtime";
import type { DeliveryDoc } from "./delivery.entity.ts";
import { noteFailure } from "./endpoint-failures.ts";
import { signingSecrets, webhookHeaders } from "./signing-secret.ts";
import { urlRules, type WebhooksDeps } from "./webhooks.deps.ts";

/** What of a public target's response body an attempt keeps for the deliveries list. */
const KEPT_BODY_CHARS = 2_048;

/**
 * One attempt of a delivery this worker claimed (`leaseId`): sign the event, POST it, record
 * the attempt, then either mark the delivery done or schedule its next try on the retry
 * schedule. A delivery whose endpoint was deleted or disabled, or whose event is gone, is
 * cancelled instead. `lease.check()` comes before the POST and before the writes: a worker that
 * lost its claim (its heartbeat says so) stops there and leaves the delivery to the worker that
 * took it over, which sends it again (at least once) and records that attempt.
 */
export async function attemptDelivery(deps: WebhooksDeps, delivery: DeliveryDoc, leaseId: string, lease: Pick<LeaseHeartbeat, "check">): Promise<void> {
  const [endpoint, event] = await Promise.all([deps.endpoints.find(delivery.endpointId), deps.events.find(delivery.eventId)]);
  const start = deps.now();
  lease.check();
  if (!endpoint || endpoint.status !== "enabled" || !event) {
    const at = start.toISOString();
    await deps.deliveries.finish(delivery._id, leaseId, { status: "cancelled", attempts: delivery.attempts, dueAt: at, updatedAt: at });
    return;
  }
  const headers = { "content-type": "application/json", "user-agent": "Payrail-Webhooks/1.0", ...webhookHeaders(signingSecrets(deps, endpoint, start), event._id, start, event.body) };
  const result = await deps.sender.send({ url: endpoint.url, headers, body: event.body, timeoutMs: deps.policy.timeoutMs, publicOnly: urlRules(deps, endpoint.livemode).publicOnly });
  lease.check();
  const ok = result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
  const attempts = delivery.attempts + 1;
  const end = deps.now();
  if (ok && endpoint.failingSince !== null) await deps.endpoints.markHealthy(endpoint._id);
  const { disabled } = ok ? { disabled: false } : await noteFailure(deps, endpoint, end);
  deps.stats.count(ok ? "succeeded" : "failed");
  if (disabled) deps.stats.count("endpoint_disabled");
  const delay = ok || disabled ? null : nextRetryDelayMs(deps.policy.retryScheduleMs, attempts);
  const nextRetryAt = delay === null ? null : new Date(end.getTime() + delay).toISOString();
  lease.check();
  await deps.deliveries.recordAttempt({
    _id: `${delivery._id}.${attempts}`,
    deliveryId: delivery._id,
    endpointId: endpoint._id,
    eventId: event._id,
    eventType: event.type,
    attempt: attempts,
    ok,
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
    error: result.error ?? (ok ? null : `HTTP ${result.httpStatus}`),
    // A private target's answer is an internal service's: its status only, never its body.
    responseBody: result.fromPublicAddress ? (result.responseBody?.slice(0, KEPT_BODY_CHARS) ?? null) : null,
    fromPublicAddress: result.fromPublicAddress,
    attemptedAt: start.toISOString(),
    nextRetryAt,
  });
  const status = ok ? "succeeded" : nextRetryAt ? "pending" : "failed";
  lease.check();
  await deps.deliveries.finish(delivery._id, leaseId, { status, attempts, dueAt: nextRetryAt ?? end.toISOString(), updatedAt: end.toISOString() });
}
