import { AppError, requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Removes the merchant's endpoint, and counts it off the merchant's 16 (only the request whose
 * delete removed it does); its pending deliveries are cancelled when next due. The removal and
 * its audit entry are one write (the endpoint stays as a tombstone until the entry is published).
 */
export async function deleteWebhookEndpoint(deps: WebhooksDeps, meta: AuditMeta, input: { id: string }) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const at = deps.now().toISOString();
  const audit = auditEvents(meta, { service: "webhooks", merchantId, action: "webhook_endpoint.deleted", object: { type: "webhook_endpoint", id: input.id }, at, livemode: deps.livemode });
  if (!(await deps.endpoints.remove(merchantId, input.id, audit))) {
    throw new AppError("resource_missing", `no webhook endpoint ${input.id}`, { param: "id" });
  }
  deps.outbox.written();
  await deps.quotas.release(merchantId, deps.now().toISOString());
  return { id: input.id, deleted: true as const };
}
