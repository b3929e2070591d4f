import { AppError, type Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { dashboardUserOf, spendSecondFactor, wrongCode } from "./second-factor.ts";
import { countSignInAttempt, failedAttempt } from "./sign-in-guard.ts";

/**
 * Turns two-factor off with a current code or a recovery code: a stolen session alone cannot.
 * The code counts as a sign-in attempt of the account, like the second step's. Refused while the
 * team requires two-factor.
 */
export async function disableTotp(deps: MerchantUsersDeps, principal: Principal, input: { code: string }) {
  const user = await dashboardUserOf(deps, principal);
  if (user.totp?.enabled !== true) return { enabled: false as const };
  const merchant = await deps.merchants.findMerchant(user.merchantId);
  if (merchant?.requireTwoFactor === true) throw new AppError("permission_denied", "the team requires two-factor: an owner must lift the rule first");
  const counted = await countSignInAttempt(deps, user.email, undefined);
  if (!(await spendSecondFactor(deps, user, input.code))) throw failedAttempt(counted, wrongCode());
  await deps.merchantUsers.disableTotp(user._id, user.totp.secretSealed);
  return { enabled: false as const };
}
