import { AppError, maskPhone, requireService, type Principal } from "@payrail/contracts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { UsersPort } from "./ports/users.port.ts";

/**
 * For the notices service only: the merchant as every notice names it (name, support email and
 * phone of its profile) and the consumer's verified phone, masked: notices never holds the
 * number; it asks identity to send (`sendNoticeSms`).
 */
export async function getNoticeContacts(
  deps: { merchants: MerchantsPort; users: UsersPort },
  principal: Principal,
  input: { merchant_id: string; user_id: string },
) {
  requireService(principal);
  const [merchant, user] = await Promise.all([deps.merchants.findMerchant(input.merchant_id), deps.users.findById(input.user_id)]);
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${input.merchant_id}`, { param: "merchant_id" });
  return {
    merchant: { name: merchant.name, support_email: merchant.supportEmail ?? null, support_phone: merchant.supportPhone ?? null },
    phone_masked: user ? maskPhone(user.phone) : null,
  };
}
