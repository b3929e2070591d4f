import { requireMerchantWriter, type MerchantProfileBody, type MerchantView } from "@payrail/contracts";
import type { AuditMeta } from "@payrail/runtime";
import { changeMerchant, type ChangeMerchantDeps } from "./change-merchant.ts";
import type { MerchantChanges } from "./merchant.entity.ts";

/**
 * The calling merchant's profile: the fields sent change (null clears a contact or the
 * descriptor), in one write with its audit entry; the schema already upper-cased and checked the
 * descriptor. A call that sends no field, or only the values the profile has, changes nothing
 * and records nothing.
 */
export async function updateMerchantProfile(
  deps: ChangeMerchantDeps,
  meta: AuditMeta,
  body: MerchantProfileBody,
): Promise<MerchantView> {
  const { merchantId } = requireMerchantWriter(meta.principal);
  const changes: MerchantChanges = {};
  if (body.support_email !== undefined) changes.supportEmail = body.support_email;
  if (body.support_phone !== undefined) changes.supportPhone = body.support_phone;
  if (body.statement_descriptor !== undefined) changes.statementDescriptor = body.statement_descriptor;
  if (body.default_transaction_purpose !== undefined) changes.defaultTransactionPurpose = body.default_transaction_purpose;
  return changeMerchant(deps, meta, merchantId, "merchant_profile.updated", changes);
}
