import { AppError, requireMerchantWriter, type Principal } from "@payrail/contracts";
import { endpointOf } from "./owned.ts";
import { PREVIOUS_SECRET_TTL_MS, newSigningSecret } from "./signing-secret.ts";
import { toWebhookEndpoint } from "./webhook-endpoint.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * A new secret, answered once; the one it replaces keeps signing beside it for 24 hours, so
 * the merchant can switch their receiver over without losing a delivery. The write expects
 * the secret it read: of two racing rotations one wins, the other is a 409 to retry.
 */
export async function rotateWebhookSecret(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchantWriter(principal);
  const endpoint = await endpointOf(deps, merchantId, input.id);
  const secret = newSigningSecret();
  const now = deps.now();
  const rotated = await deps.endpoints.rotate(
    endpoint._id,
    endpoint.secret,
    deps.secretBox.seal(secret, endpoint._id),
    new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString(),
    now.toISOString(),
  );
  if (!rotated) throw new AppError("invalid_request", "the secret was rotated meanwhile; try again", { param: "id" });
  return { ...toWebhookEndpoint(rotated), secret };
}
