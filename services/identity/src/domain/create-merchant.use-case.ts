import { nowIso, prefixedHexId } from "@payrail/runtime";
import { toMerchantView } from "./merchant.entity.ts";
import { issueApiKey } from "./generate-api-key.use-case.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { MerchantView } from "@payrail/contracts";

/** Creates a merchant with its first API key; the key is shown here once and never again. */
export async function createMerchant(
  deps: { merchants: MerchantsPort; livemode: boolean },
  input: { name: string; destination_funding_source?: string | undefined },
): Promise<{ merchant: MerchantView; api_key: string; key_prefix: string }> {
  const merchant = {
    _id: prefixedHexId("mer_"),
    name: input.name,
    destinationFundingSource: input.destination_funding_source ?? null,
    createdAt: nowIso(),
  };
  await deps.merchants.insertMerchant(merchant);
  const key = await issueApiKey(deps, merchant._id);
  return { merchant: toMerchantView(merchant), api_key: key.api_key, key_prefix: key.key_prefix };
}
