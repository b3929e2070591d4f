import { AppError } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";

/**
 * The owner's "require two-factor for the team"; members without it enrol at their next sign-in.
 * The rule moves in one write conditional on it being the other way, with its audit entry: setting
 * it to what it is already changes nothing and records nothing.
 */
export async function setTeamTwoFactor(deps: MerchantUsersDeps, meta: AuditMeta, input: { merchant_id: string; required: boolean }) {
  const { principal } = meta;
  const owner = principal.kind === "admin" || (principal.kind === "merchant" && principal.merchantId === input.merchant_id && principal.role === "owner");
  if (!owner) throw new AppError("permission_denied", "only an owner may require two-factor for the team");
  const action = input.required ? "team_two_factor.required" : "team_two_factor.lifted";
  const audit = auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action, object: { type: "merchant", id: input.merchant_id }, at: nowIso(), livemode: deps.livemode });
  const moved = await deps.merchants.setRequireTwoFactor(input.merchant_id, input.required, audit);
  if (moved && audit.length > 0) deps.events.written();
  const merchant = moved ?? (await deps.merchants.findMerchant(input.merchant_id));
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${input.merchant_id}`);
  return { required: merchant.requireTwoFactor === true };
}
