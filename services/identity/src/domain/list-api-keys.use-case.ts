import type { MerchantsPort } from "./ports/merchants.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/** A merchant has a handful of keys; the cap only bounds the answer. */
export const MAX_KEYS_LISTED = 1000;

/** The merchant's API keys, oldest first, by prefix: the key itself is never stored. */
export async function listApiKeys(deps: { merchants: MerchantsPort }, merchantId: string) {
  await requireMerchantRecord(deps, merchantId);
  const keys = await deps.merchants.listKeys(merchantId, MAX_KEYS_LISTED);
  return {
    data: keys.map((k) => ({ key_prefix: k.prefix, livemode: k.livemode, created_at: k.createdAt, revoked_at: k.revokedAt })),
  };
}
