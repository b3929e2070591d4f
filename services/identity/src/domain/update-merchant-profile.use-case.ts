import { AppError, requireMerchantWriter, type MerchantProfileBody, type MerchantView } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import { toMerchantView, type MerchantProfileChanges } from "./merchant.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/**
 * The calling merchant's profile: the fields sent change (null clears a contact or the
 * descriptor), in one write with its audit entry; the schema already upper-cased and checked the
 * descriptor. A call that sends no field changes nothing and records nothing.
 */
export async function updateMerchantProfile(
  deps: { merchants: MerchantsPort; livemode: boolean; events: { written(): void } },
  meta: AuditMeta,
  body: MerchantProfileBody,
): Promise<MerchantView> {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const changes: MerchantProfileChanges = {};
  if (body.support_email !== undefined) changes.supportEmail = body.support_email;
  if (body.support_phone !== undefined) changes.supportPhone = body.support_phone;
  if (body.statement_descriptor !== undefined) changes.statementDescriptor = body.statement_descriptor;
  if (body.default_transaction_purpose !== undefined) changes.defaultTransactionPurpose = body.default_transaction_purpose;
  const change = { service: "identity", merchantId, action: "merchant_profile.updated", object: { type: "merchant", id: merchantId }, at: nowIso(), livemode: deps.livemode } as const;
  const unchanged = Object.keys(changes).length === 0;
  const merchant = unchanged ? await deps.merchants.findMerchant(merchantId) : await deps.merchants.updateProfile(merchantId, changes, auditEvents(meta, change));
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${merchantId}`, { param: "id" });
  if (!unchanged) deps.events.written();
  return toMerchantView(merchant);
}
