import { AppError, type Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { dashboardUserOf } from "./second-factor.ts";
import { newTotpSecret, totpUri } from "./totp.ts";

const alreadyOn = () => new AppError("two_factor_enabled", "two-factor is already on; turn it off first to enrol another app");

/** A new secret, sealed and pending on the user until a code confirms it; shown this once. */
export async function startTotpEnrolment(deps: MerchantUsersDeps, principal: Principal) {
  const user = await dashboardUserOf(deps, principal);
  if (user.totp?.enabled === true) throw alreadyOn();
  const secret = newTotpSecret();
  const pending = { secretSealed: deps.totpBox.seal(secret, user._id), enabled: false, lastStep: 0, recovery: {} };
  if (!(await deps.merchantUsers.startTotp(user._id, pending))) throw alreadyOn();
  return { secret, otpauth_uri: totpUri(secret, user.email) };
}
