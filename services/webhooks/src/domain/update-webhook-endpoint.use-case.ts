import { AppError, requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { endpointOf } from "./owned.ts";
import type { EndpointChanges } from "./ports/endpoints.port.ts";
import { toWebhookEndpoint } from "./webhook-endpoint.entity.ts";
import { urlRules, type WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Changes what was sent of url, events, description and status, in one conditional write.
 * A new url passes the same check as at creation; enabling an endpoint starts its failure
 * count afresh. The audit entry rides the same write.
 */
export async function updateWebhookEndpoint(
  deps: WebhooksDeps,
  meta: AuditMeta,
  input: { id: string; url?: string | undefined; enabled_events?: string[] | undefined; description?: string | null | undefined; status?: "enabled" | "disabled" | undefined },
) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  await endpointOf(deps, merchantId, input.id);
  if (input.url !== undefined) await deps.urlGuard.check(input.url, urlRules(deps));
  const changes: EndpointChanges = { updatedAt: deps.now().toISOString() };
  if (input.url !== undefined) changes.url = input.url;
  if (input.enabled_events !== undefined) changes.enabledEvents = [...new Set(input.enabled_events)];
  if (input.description !== undefined) changes.description = input.description;
  if (input.status !== undefined) {
    changes.status = input.status;
    changes.failingSince = null;
    changes.disabledReason = null;
  }
  const object = { type: "webhook_endpoint", id: input.id };
  const audit = auditEvents(meta, { service: "webhooks", merchantId, action: "webhook_endpoint.updated", object, at: changes.updatedAt!, livemode: deps.livemode });
  const updated = await deps.endpoints.update(merchantId, input.id, changes, audit);
  if (!updated) throw new AppError("resource_missing", `no webhook endpoint ${input.id}`, { param: "id" });
  deps.outbox.written();
  return toWebhookEndpoint(updated);
}
