import { AppError, requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { endpointOf } from "./owned.ts";
import { PREVIOUS_SECRET_TTL_MS, newSigningSecret } from "./signing-secret.ts";
import { toWebhookEndpoint } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * A new secret, answered once; the one it replaces keeps signing beside it for 24 hours, so
 * the merchant can switch their receiver over without losing a delivery. The write expects
 * the secret it read: of two racing rotations one wins, the other is a 409 to retry. The audit
 * entry (never the secret) rides the same write.
 */
export async function rotateWebhookSecret(deps: WebhooksDeps, meta: AuditMeta, input: { id: string }) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const endpoint = await endpointOf(deps, merchantId, input.id);
  const secret = newSigningSecret();
  const now = deps.now();
  const rotated = await deps.endpoints.rotate(
    endpoint._id,
    endpoint.secret,
    deps.secretBox.seal(secret, endpoint._id),
    new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString(),
    now.toISOString(),
    auditEvents(meta, { service: "webhooks", merchantId, action: "webhook_endpoint.secret_rotated", object: { type: "webhook_endpoint", id: endpoint._id }, at: now.toISOString(), livemode: deps.livemode }),
  );
  if (!rotated) throw new AppError("invalid_request", "the secret was rotated meanwhile; try again", { param: "id" });
  deps.outbox.written();
  return { ...toWebhookEndpoint(rotated), secret };
}
