import type { MerchantsPort } from "./ports/merchants.port.ts";
import { toMerchantView } from "./merchant.entity.ts";

/** The merchants, newest first: one more than asked tells whether there are more. */
export async function listMerchants(deps: { merchants: MerchantsPort }, limit: number) {
  const found = await deps.merchants.listMerchants(limit + 1);
  return { data: found.slice(0, limit).map(toMerchantView), has_more: found.length > limit };
}
