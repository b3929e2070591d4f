import type { Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { dashboardUserOf } from "./second-factor.ts";

/** The signed-in user's two-factor, as the security page shows it. */
export async function getTwoFactorStatus(deps: MerchantUsersDeps, principal: Principal) {
  const user = await dashboardUserOf(deps, principal);
  const merchant = await deps.merchants.findMerchant(user.merchantId);
  const enabled = user.totp?.enabled === true;
  const left = enabled ? Object.values(user.totp!.recovery).filter((spent) => !spent).length : 0;
  return { enabled, recovery_codes_left: left, team_requires: merchant?.requireTwoFactor === true };
}
