import { AppError } from "@payrail/contracts";
import type { CountryCode } from "libphonenumber-js";
import { prefixedHexId } from "@payrail/runtime";
import { normalisePhone } from "./phone-number.ts";
import { decideResend } from "./resend-limit.ts";
import { takeSendBudgets, type SendCodeBudgets, type SendCodeLimitStats } from "./send-code-limits.ts";
import { CODE_TTL_MS, codeMessage, hashCode, newCode } from "./verification-code.ts";
import type { SendBudgetsPort } from "./ports/send-budgets.port.ts";
import type { SmsPort } from "./ports/sms.port.ts";
import type { UsersPort } from "./ports/users.port.ts";
import type { VerificationCodesPort } from "./ports/verification-codes.port.ts";

export interface SendCodeDeps {
  codes: VerificationCodesPort;
  sms: SmsPort;
  codeKey: Buffer;
  budgets: SendBudgetsPort;
  limits: SendCodeBudgets;
  /** Whether the phone verified before: such a phone is outside the country and total budgets. */
  users: UsersPort;
  stats: SendCodeLimitStats;
  /** DEFAULT_PHONE_COUNTRY: the country of a number written without its country code. */
  defaultPhoneCountry: CountryCode;
  now(): number;
}

/** Concurrent sends for one phone: each loser re-reads once the winner's write is visible. */
const MAX_WRITE_ROUNDS = 3;

/**
 * Send Code (spec 4): a new code replaces the phone's current one, within the resend limits
 * per phone and then the sliding-hour budgets per client address and, for a phone that never
 * verified, per calling code and in total (docs/decisions/0003-send-code-budgets.md: a send
 * the phone's rules refuse costs no budget, so nobody can spend everyone's by hammering one
 * number). The code is recorded before it is texted, so two racing requests cannot both send; if the
 * provider refuses it, the code is withdrawn and the 30-second wait lifted (the send still
 * counts toward the hour, so a failing number cannot be retried without bound).
 */
export async function sendCode(deps: SendCodeDeps, rawPhone: string, clientAddress?: string): Promise<{ success: string }> {
  const phone = normalisePhone(rawPhone, deps.defaultPhoneCountry);
  const code = newCode();
  let budgeted = false;
  for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
    const current = await deps.codes.find(phone);
    const now = deps.now();
    const decision = decideResend(current, now);
    if (!decision.allowed) {
      deps.stats.count("phone");
      const retryAfter = Math.ceil(decision.retryAfterMs / 1000);
      throw new AppError("rate_limited", `a code was sent to this phone recently; retry in ${retryAfter} s`, { param: "phone", retryAfter });
    }
    if (!budgeted) {
      const returning = (await deps.users.findByPhone(phone)) !== null;
      await takeSendBudgets(deps, { clientAddress, phone, returning }, now);
      budgeted = true;
    }
    const codeId = prefixedHexId("vc_");
    const stored = await deps.codes.replace(phone, current?.codeId ?? null, {
      codeId,
      codeHash: hashCode(deps.codeKey, phone, code),
      expiresAt: new Date(now + CODE_TTL_MS).toISOString(),
      sentAt: decision.sentAt,
      now: new Date(now).toISOString(),
    });
    if (!stored) continue;
    try {
      await deps.sms.send(phone, codeMessage(code));
    } catch (err) {
      await deps.codes.withdraw(phone, codeId, current?.lastSentAt ?? null);
      throw err;
    }
    return { success: "Verification code sent" };
  }
  // Only a storm of sends for one phone gets here; each of them was refused or won a round.
  throw new AppError("rate_limited", "codes are being requested for this phone concurrently; retry shortly", { param: "phone", retryAfter: 1 });
}
