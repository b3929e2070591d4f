import { ANONYMOUS, AppError, resolveApiKeyOp, type MerchantPrincipal } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { callService } from "../http/call-service.ts";

/**
 * Resolves the `api-key` header to its merchant through identity (cached briefly). The
 * rate-limit plugin counts the call against the key afterwards.
 */
export async function authenticateMerchant(ctx: GatewayContext, request: FastifyRequest): Promise<MerchantPrincipal> {
  const header = request.headers["api-key"];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new AppError("api_key_missing", "the api-key header is required");
  const hash = sha256Hex(key);
  let principal = ctx.apiKeyCache.get(hash);
  if (!principal) {
    const resolved = await callService(ctx, request, resolveApiKeyOp, { api_key: key.slice(0, 256) }, ANONYMOUS);
    principal = {
      kind: "merchant",
      merchantId: resolved.merchant_id,
      keyPrefix: resolved.key_prefix,
      livemode: resolved.livemode,
    };
    ctx.apiKeyCache.set(hash, principal);
  }
  request.log = request.log.child({ merchantId: principal.merchantId, keyPrefix: principal.keyPrefix });
  return principal;
}
