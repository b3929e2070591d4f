import { AppError } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { newRecoveryCodes, recoveryCodeHash } from "./recovery-codes.ts";
import { dashboardUserOf, twoFactorChange, wrongCode } from "./second-factor.ts";
import { totpStepOf } from "./totp.ts";

/**
 * A first code from the app turns the pending secret on, with 10 recovery codes (returned this
 * once, stored hashed), in one write conditional on the secret still being the pending one, with
 * its audit entry. Starting an enrolment only keeps a pending secret: nothing is on until this.
 */
export async function confirmTotpEnrolment(deps: MerchantUsersDeps, meta: AuditMeta, input: { code: string }) {
  const user = await dashboardUserOf(deps, meta.principal);
  const notStarted = new AppError("two_factor_not_started", "no two-factor enrolment is pending; start it again");
  if (user.totp?.enabled === true) throw new AppError("two_factor_enabled", "two-factor is already on");
  if (!user.totp) throw notStarted;
  const step = totpStepOf(deps.totpBox.open(user.totp.secretSealed, user._id), input.code.trim(), deps.now());
  if (step === null) throw wrongCode();
  const codes = newRecoveryCodes();
  const recovery = Object.fromEntries(codes.map((code) => [recoveryCodeHash(user._id, code)!, false]));
  const audit = auditEvents(meta, twoFactorChange(deps, user, "team_member.two_factor_enabled"));
  if (!(await deps.merchantUsers.enableTotp(user._id, user.totp.secretSealed, step, recovery, audit))) throw notStarted;
  deps.events.written();
  return { recovery_codes: codes };
}
