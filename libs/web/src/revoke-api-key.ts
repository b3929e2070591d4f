import { revokeApiKeyOp } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { WebContext } from "./web-context.ts";
import { callService } from "./call-service.ts";

/**
 * Revokes a merchant's key (the admin route and the dashboard's button) and forgets it in this
 * gateway's key cache, so the key is refused here from the next request on.
 */
export async function revokeApiKey(ctx: WebContext, request: FastifyRequest, merchantId: string, keyPrefix: string) {
  const revoked = await callService(ctx, request, revokeApiKeyOp, { merchant_id: merchantId, key_prefix: keyPrefix });
  ctx.apiKeyCache.forget(merchantId, keyPrefix);
  return revoked;
}
