import { AppError, type MerchantView, type Principal } from "@payrail/contracts";
import { toMerchantView } from "./merchant.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/**
 * A merchant, to an admin, to itself, or to a service (payments, for the merchant its records
 * name: the broker lets no other service ask); to anyone else it does not exist.
 */
export async function getMerchant(
  deps: { merchants: MerchantsPort },
  principal: Principal,
  merchantId: string,
): Promise<MerchantView> {
  const allowed = principal.kind === "admin" || principal.kind === "service" || (principal.kind === "merchant" && principal.merchantId === merchantId);
  const merchant = allowed ? await deps.merchants.findMerchant(merchantId) : null;
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${merchantId}`, { param: "id" });
  return toMerchantView(merchant);
}
