import { AppError } from "@payrail/contracts";
import type { MerchantRecord } from "./merchant.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/** The merchant an admin action names, or 404 `merchant_not_found` (param `id`, the path's). */
export async function requireMerchantRecord(deps: { merchants: MerchantsPort }, merchantId: string): Promise<MerchantRecord> {
  const merchant = await deps.merchants.findMerchant(merchantId);
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${merchantId}`, { param: "id" });
  return merchant;
}
