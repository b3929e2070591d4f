import { AppError } from "@payrail/contracts";
import { applyTransferStatus } from "./apply-transfer-status.use-case.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { WebhookDeps } from "./transfer.deps.ts";

/**
 * A transfer provider's webhook: signed with HMAC-SHA256 over the exact raw body (checked
 * before anything is parsed), then handed to the same status path as sandbox simulations.
 * Events about other things (customers, funding sources) are acknowledged and ignored.
 */
export async function handleTransferWebhook(
  deps: WebhookDeps,
  meta: RequestMeta,
  input: { raw_body: string; signature: string | null },
): Promise<{ received: true; duplicate: boolean }> {
  const secret = deps.webhookSecret;
  if (!secret || !deps.verifyWebhook(secret, input.raw_body, input.signature ?? undefined)) {
    throw new AppError("webhook_signature_invalid", "the webhook signature is missing or wrong");
  }
  let body: unknown;
  try {
    body = JSON.parse(input.raw_body);
  } catch {
    throw new AppError("invalid_json", "the webhook body is not valid JSON");
  }
  const event = deps.parseWebhook(body);
  if (!event) return { received: true, duplicate: false };
  const result = await applyTransferStatus(deps, meta, event);
  return { received: true, duplicate: result.duplicate };
}
