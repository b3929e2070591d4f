import { AppError, requireMerchantWriter, type MerchantProfileBody, type MerchantView, type Principal } from "@payrail/contracts";
import { toMerchantView, type MerchantProfileChanges } from "./merchant.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/**
 * The calling merchant's profile: the fields sent change (null clears a contact or the
 * descriptor), in one write; the schema already upper-cased and checked the descriptor.
 */
export async function updateMerchantProfile(deps: { merchants: MerchantsPort }, principal: Principal, body: MerchantProfileBody): Promise<MerchantView> {
  const { merchantId } = requireMerchantWriter(principal);
  const changes: MerchantProfileChanges = {};
  if (body.support_email !== undefined) changes.supportEmail = body.support_email;
  if (body.support_phone !== undefined) changes.supportPhone = body.support_phone;
  if (body.statement_descriptor !== undefined) changes.statementDescriptor = body.statement_descriptor;
  if (body.default_transaction_purpose !== undefined) changes.defaultTransactionPurpose = body.default_transaction_purpose;
  const merchant = Object.keys(changes).length === 0 ? await deps.merchants.findMerchant(merchantId) : await deps.merchants.updateProfile(merchantId, changes);
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${merchantId}`, { param: "id" });
  return toMerchantView(merchant);
}
