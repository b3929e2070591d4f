import { AppError } from "@payrail/contracts";
import { hashPresentedKey } from "./api-key.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/** The merchant behind a presented `api-key`: unknown, malformed and revoked keys all get 401. */
export async function resolveApiKey(
  deps: { merchants: MerchantsPort },
  presented: string,
): Promise<{ merchant_id: string; key_prefix: string; livemode: boolean }> {
  const hash = hashPresentedKey(presented);
  const key = hash ? await deps.merchants.findActiveKey(hash) : null;
  if (!key) throw new AppError("api_key_invalid", "the api-key is not valid");
  return { merchant_id: key.merchantId, key_prefix: key.prefix, livemode: key.livemode };
}
