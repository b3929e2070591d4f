import { AppError, type Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { newRecoveryCodes, recoveryCodeHash } from "./recovery-codes.ts";
import { dashboardUserOf, wrongCode } from "./second-factor.ts";
import { totpStepOf } from "./totp.ts";

/**
 * A first code from the app turns the pending secret on, with 10 recovery codes (returned this
 * once, stored hashed), in one write conditional on the secret still being the pending one.
 */
export async function confirmTotpEnrolment(deps: MerchantUsersDeps, principal: Principal, input: { code: string }) {
  const user = await dashboardUserOf(deps, principal);
  const notStarted = new AppError("two_factor_not_started", "no two-factor enrolment is pending; start it again");
  if (user.totp?.enabled === true) throw new AppError("two_factor_enabled", "two-factor is already on");
  if (!user.totp) throw notStarted;
  const step = totpStepOf(deps.totpBox.open(user.totp.secretSealed, user._id), input.code.trim(), deps.now());
  if (step === null) throw wrongCode();
  const codes = newRecoveryCodes();
  const recovery = Object.fromEntries(codes.map((code) => [recoveryCodeHash(user._id, code)!, false]));
  if (!(await deps.merchantUsers.enableTotp(user._id, user.totp.secretSealed, step, recovery))) throw notStarted;
  return { recovery_codes: codes };
}
