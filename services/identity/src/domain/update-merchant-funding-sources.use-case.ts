import type { MerchantFundingSourcesBody, MerchantView } from "@payrail/contracts";
import type { AuditMeta } from "@payrail/runtime";
import { changeMerchant, type ChangeMerchantDeps } from "./change-merchant.ts";
import type { MerchantChanges } from "./merchant.entity.ts";

/**
 * The admin changes where a merchant's debits land and where its payouts go: the funding sources
 * sent change (null clears one), in one write with its audit entry; a call that sends none, or
 * only the values the merchant has, changes nothing and records nothing. Payments asks identity
 * for them before each payout transfer it makes, so the next one uses them
 * (docs/decisions/0050-payouts.md).
 */
export async function updateMerchantFundingSources(
  deps: ChangeMerchantDeps,
  meta: AuditMeta,
  input: MerchantFundingSourcesBody & { merchant_id: string },
): Promise<MerchantView> {
  const changes: MerchantChanges = {};
  if (input.destination_funding_source !== undefined) changes.destinationFundingSource = input.destination_funding_source;
  if (input.payout_funding_source !== undefined) changes.payoutFundingSource = input.payout_funding_source;
  return changeMerchant(deps, meta, input.merchant_id, "merchant.funding_sources_updated", changes);
}
