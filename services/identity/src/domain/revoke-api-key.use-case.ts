import { AppError } from "@payrail/contracts";
import { nowIso } from "@payrail/runtime";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/** Revokes a key by prefix; revoking a revoked key again answers the same (idempotent). */
export async function revokeApiKey(
  deps: { merchants: MerchantsPort },
  merchantId: string,
  prefix: string,
): Promise<{ revoked: true; key_prefix: string }> {
  const revoked = await deps.merchants.revokeKey(merchantId, prefix, nowIso());
  if (!revoked && !(await deps.merchants.findKeyByPrefix(merchantId, prefix))) {
    throw new AppError("api_key_not_found", `merchant ${merchantId} has no key ${prefix}`, { param: "key_prefix" });
  }
  return { revoked: true, key_prefix: prefix };
}
