import { AppError } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/**
 * Revokes a key by prefix, with its audit entry in the same write; revoking a revoked key again
 * answers the same (idempotent) and writes no second entry.
 */
export async function revokeApiKey(
  deps: { merchants: MerchantsPort; livemode: boolean; events: { written(): void } },
  meta: AuditMeta,
  merchantId: string,
  prefix: string,
): Promise<{ revoked: true; key_prefix: string }> {
  const at = nowIso();
  const audit = auditEvents(meta, { service: "identity", merchantId, action: "api_key.revoked", object: { type: "api_key", id: prefix }, at, livemode: deps.livemode });
  const revoked = await deps.merchants.revokeKey(merchantId, prefix, at, audit);
  if (revoked) deps.events.written();
  if (!revoked && !(await deps.merchants.findKeyByPrefix(merchantId, prefix))) {
    throw new AppError("api_key_not_found", `merchant ${merchantId} has no key ${prefix}`, { param: "key_prefix" });
  }
  return { revoked: true, key_prefix: prefix };
}
