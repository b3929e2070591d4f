import { AppError, requireMerchantWriter, type Principal } from "@payrail/contracts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Removes the merchant's endpoint, and counts it off the merchant's 16 (only the request whose
 * delete removed it does); its pending deliveries are cancelled when next due.
 */
export async function deleteWebhookEndpoint(deps: WebhooksDeps, principal: Principal, input: { id: string }) {
  const { merchantId } = requireMerchantWriter(principal);
  if (!(await deps.endpoints.remove(merchantId, input.id))) {
    throw new AppError("resource_missing", `no webhook endpoint ${input.id}`, { param: "id" });
  }
  await deps.quotas.release(merchantId, deps.now().toISOString());
  return { id: input.id, deleted: true as const };
}
