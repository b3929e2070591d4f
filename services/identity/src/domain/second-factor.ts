import { AppError, type Principal } from "@payrail/contracts";
import { nowIso, type AuditChange } from "@payrail/runtime";
import type { MerchantUserRecord } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { recoveryCodeHash } from "./recovery-codes.ts";
import { totpStepOf } from "./totp.ts";

export const wrongCode = () => new AppError("invalid_two_factor_code", "the two-factor code is wrong, used or expired");

/**
 * Checks a second factor of a user with two-factor on and spends it in one conditional write:
 * a TOTP code takes its time step only when later than the last one taken (a replay, even a
 * racing one, loses the write), a recovery code only while unspent. False when neither holds.
 */
export async function spendSecondFactor(deps: MerchantUsersDeps, user: MerchantUserRecord, code: string): Promise<boolean> {
  const totp = user.totp;
  if (totp?.enabled !== true) return false;
  const step = totpStepOf(deps.totpBox.open(totp.secretSealed, user._id), code.trim(), deps.now());
  if (step !== null) return deps.merchantUsers.takeTotpStep(user._id, step);
  const hash = recoveryCodeHash(user._id, code);
  return hash !== null && totp.recovery[hash] === false && deps.merchantUsers.spendRecoveryCode(user._id, hash);
}

/** The signed-in dashboard user acting on their own account (API keys and the admin have none). */
export async function dashboardUserOf(deps: MerchantUsersDeps, principal: Principal): Promise<MerchantUserRecord> {
  const denied = new AppError("permission_denied", "only a signed-in dashboard user may change their own two-factor");
  if (principal.kind !== "merchant" || !principal.userId) throw denied;
  const user = await deps.merchantUsers.findById(principal.userId);
  if (!user || user.merchantId !== principal.merchantId || user.status !== "active") throw denied;
  return user;
}

/** The audit change of a user turning their own two-factor on or off (the user is the object as a team member). */
export function twoFactorChange(
  deps: Pick<MerchantUsersDeps, "livemode">,
  user: MerchantUserRecord,
  action: "team_member.two_factor_enabled" | "team_member.two_factor_disabled",
): AuditChange {
  return { service: "identity", merchantId: user.merchantId, action, object: { type: "team_member", id: user._id }, at: nowIso(), livemode: deps.livemode };
}
