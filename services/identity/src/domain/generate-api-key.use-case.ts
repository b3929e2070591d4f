import { nowIso } from "@payrail/runtime";
import { newApiKey } from "./api-key.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/** Issues one more key; older keys keep working until revoked (rotation without downtime). */
export async function generateApiKey(
  deps: { merchants: MerchantsPort; livemode: boolean },
  merchantId: string,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  await requireMerchantRecord(deps, merchantId);
  return issueApiKey(deps, merchantId);
}

export async function issueApiKey(
  deps: { merchants: MerchantsPort; livemode: boolean },
  merchantId: string,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  const key = newApiKey(deps.livemode);
  await deps.merchants.insertKey({
    _id: key.hash,
    merchantId,
    prefix: key.prefix,
    livemode: key.livemode,
    createdAt: nowIso(),
    revokedAt: null,
  });
  return { api_key: key.key, key_prefix: key.prefix, livemode: key.livemode };
}
