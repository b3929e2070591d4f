import type { AuditAction, MerchantView } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import { toMerchantView, type MerchantChanges } from "./merchant.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/** What changing a merchant needs. */
export type ChangeMerchantDeps = { merchants: MerchantsPort; livemode: boolean; events: { written(): void } };

/**
 * Sets `changes` on the merchant with its audit entry (`action`, the merchant its object) in one
 * write conditional on a field sent holding another value, so a call that sends no field, or only
 * the values the merchant has, changes nothing and records nothing. Answers the merchant as it
 * now is; 404 `merchant_not_found` when there is none.
 */
export async function changeMerchant(
  deps: ChangeMerchantDeps,
  meta: AuditMeta,
  merchantId: string,
  action: AuditAction,
  changes: MerchantChanges,
): Promise<MerchantView> {
  const audit = auditEvents(meta, { service: "identity", merchantId, action, object: { type: "merchant", id: merchantId }, at: nowIso(), livemode: deps.livemode });
  const moved = await deps.merchants.updateMerchant(merchantId, changes, audit);
  if (moved && audit.length > 0) deps.events.written();
  return toMerchantView(moved ?? (await requireMerchantRecord(deps, merchantId)));
}
