import { AppError } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { dashboardUserOf, spendSecondFactor, twoFactorChange, wrongCode } from "./second-factor.ts";
import { countSignInAttempt, failedAttempt } from "./sign-in-guard.ts";

/**
 * Turns two-factor off with a current code or a recovery code: a stolen session alone cannot.
 * The code counts as a sign-in attempt of the account, like the second step's. Refused while the
 * team requires two-factor. The write that turns it off carries its audit entry; a user without
 * two-factor changes nothing and records nothing.
 */
export async function disableTotp(deps: MerchantUsersDeps, meta: AuditMeta, input: { code: string }) {
  const user = await dashboardUserOf(deps, meta.principal);
  if (user.totp?.enabled !== true) return { enabled: false as const };
  const merchant = await deps.merchants.findMerchant(user.merchantId);
  if (merchant?.requireTwoFactor === true) throw new AppError("permission_denied", "the team requires two-factor: an owner must lift the rule first");
  const counted = await countSignInAttempt(deps, user.email, undefined);
  if (!(await spendSecondFactor(deps, user, input.code))) throw failedAttempt(counted, wrongCode());
  const audit = auditEvents(meta, twoFactorChange(deps, user, "team_member.two_factor_disabled"));
  if (await deps.merchantUsers.disableTotp(user._id, user.totp.secretSealed, audit)) deps.events.written();
  return { enabled: false as const };
}
