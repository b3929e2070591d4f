import { AppError } from "@payrail/contracts";
import type { CountryCode } from "libphonenumber-js";
import { prefixedHexId } from "@payrail/runtime";
import { issueAuthToken } from "./issue-auth-token.ts";
import { normalisePhone } from "./phone-number.ts";
import { decideResend } from "./resend-limit.ts";
import { scopeOfCode } from "./scoped-codes.ts";
import { MAX_WRONG_ATTEMPTS, codeMatches } from "./verification-code.ts";
import type { VerificationCodeRecord } from "./consumer.entity.ts";
import type { AuthTokensPort } from "./ports/auth-tokens.port.ts";
import type { UsersPort } from "./ports/users.port.ts";
import type { VerificationCodesPort } from "./ports/verification-codes.port.ts";

export interface VerifyCodeDeps {
  codes: VerificationCodesPort;
  users: UsersPort;
  authTokens: AuthTokensPort;
  codeKey: Buffer;
  /** Live: the texted code verifies. Sandbox: only a merchant's own code does (`scopedCode`). */
  livemode: boolean;
  authTokenTtlMs: number;
  /** DEFAULT_PHONE_COUNTRY: read the phone as Send Code did. */
  defaultPhoneCountry: CountryCode;
  now(): number;
}

const invalidCode = () => new AppError("invalid_verification_code", "the verification code is not valid", { param: "verification_code" });
/** Retry-After: when a new code can be requested (retrying this one never helps). */
const tooManyAttempts = (record: VerificationCodeRecord | null, now: number) => {
  const decision = decideResend(record, now);
  const retryAfter = decision.allowed ? 1 : Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return new AppError("too_many_attempts", "too many wrong attempts; request a new code", { param: "verification_code", retryAfter });
};

/**
 * Verify Code (spec 5): the phone's current code, if live, right and unexpired, is consumed
 * by one conditional write (so of many racing correct requests exactly one wins) and exchanged
 * for an auth token; the phone's first verification creates its user. A wrong code counts an
 * attempt, also by one conditional write; the fifth kills the code. In the sandbox the code is
 * one a merchant read back, consumed for that merchant only, and the token reaches that
 * merchant's records only (docs/decisions/0001-sandbox-tenancy.md).
 */
export async function verifyCode(
  deps: VerifyCodeDeps,
  input: { phone: string; verification_code: string },
): Promise<{ message: string; data: { auth_token: string; user_id: string } }> {
  const phone = normalisePhone(input.phone, deps.defaultPhoneCountry);
  const record = await deps.codes.find(phone);
  const now = deps.now();
  refuseUnusable(record, now);
  const live = record!;

  const scope = deps.livemode ? null : scopeOfCode(deps.codeKey, phone, live, input.verification_code);
  // A merchant's code is good once, as a texted one is.
  if (scope?.consumed) throw invalidCode();
  if (deps.livemode ? !codeMatches(deps.codeKey, phone, input.verification_code, live.codeHash!) : !scope) {
    const counted = await deps.codes.countWrongAttempt(phone, live.codeId, MAX_WRONG_ATTEMPTS);
    if (!counted) throw stateAfterLostRace(await deps.codes.find(phone), live.codeId, now);
    throw counted.attempts >= MAX_WRONG_ATTEMPTS ? tooManyAttempts(counted, now) : invalidCode();
  }
  const at = new Date(now).toISOString();
  const consumed = scope
    ? await deps.codes.consumeScope(phone, live.codeId, scope.merchantId, scope.round, MAX_WRONG_ATTEMPTS, at)
    : await deps.codes.consume(phone, live.codeId, MAX_WRONG_ATTEMPTS, at);
  if (!consumed) throw stateAfterLostRace(await deps.codes.find(phone), live.codeId, now);

  const user = await deps.users.findOrCreate({ _id: prefixedHexId(""), phone, createdAt: at });
  const token = await issueAuthToken(deps, user, now, scope?.merchantId);
  return { message: "Authentication complete", data: { auth_token: token, user_id: user._id } };
}

/** Throws unless the record holds a code that can still be tried. */
function refuseUnusable(record: VerificationCodeRecord | null, now: number): void {
  if (!record || record.consumedAt !== null || record.codeHash === null) throw invalidCode();
  if (record.attempts >= MAX_WRONG_ATTEMPTS) throw tooManyAttempts(record, now);
  if (Date.parse(record.expiresAt) <= now) {
    throw new AppError("verification_code_expired", "the verification code has expired; request a new one", { param: "verification_code" });
  }
}

/**
 * A conditional write found the code changed under us: used up by wrong attempts (429), or
 * consumed, replaced or withdrawn by a concurrent request (401).
 */
function stateAfterLostRace(record: VerificationCodeRecord | null, codeId: string, now: number): AppError {
  if (record && record.codeId === codeId && record.consumedAt === null && record.attempts >= MAX_WRONG_ATTEMPTS) {
    return tooManyAttempts(record, now);
  }
  return invalidCode();
}
