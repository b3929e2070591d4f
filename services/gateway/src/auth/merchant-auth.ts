import { ANONYMOUS, AppError, resolveApiKeyOp, type MerchantPrincipal } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { callService } from "@payrail/web";

/**
 * Resolves the `api-key` header to its merchant through identity (cached briefly). The
 * rate-limit plugin counts the call against the key afterwards.
 */
export async function authenticateMerchant(ctx: GatewayContext, request: FastifyRequest): Promise<MerchantPrincipal> {
  const key = presentedKey(request);
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
  return logsAs(request, principal);
}

/**
 * The merchant of an api-key this gateway resolved within the cache's lifetime, without
 * awaiting anything; undefined when there is no key or it is not cached (`authenticateMerchant`
 * then decides).
 */
export function cachedMerchant(ctx: GatewayContext, request: FastifyRequest): MerchantPrincipal | undefined {
  const key = presentedKey(request);
  const principal = key ? ctx.apiKeyCache.get(sha256Hex(key)) : undefined;
  return principal && logsAs(request, principal);
}

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers["api-key"];
  return Array.isArray(header) ? header[0] : header;
}

function logsAs(request: FastifyRequest, principal: MerchantPrincipal): MerchantPrincipal {
  request.log = request.log.child({ merchantId: principal.merchantId, keyPrefix: principal.keyPrefix });
  return principal;
}
