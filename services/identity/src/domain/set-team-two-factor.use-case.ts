import { AppError, type Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";

/** The owner's "require two-factor for the team"; members without it enrol at their next sign-in. */
export async function setTeamTwoFactor(deps: MerchantUsersDeps, principal: Principal, input: { merchant_id: string; required: boolean }) {
  const owner = principal.kind === "admin" || (principal.kind === "merchant" && principal.merchantId === input.merchant_id && principal.role === "owner");
  if (!owner) throw new AppError("permission_denied", "only an owner may require two-factor for the team");
  const merchant = await deps.merchants.setRequireTwoFactor(input.merchant_id, input.required);
  if (!merchant) throw new AppError("merchant_not_found", `no merchant ${input.merchant_id}`);
  return { required: merchant.requireTwoFactor === true };
}
