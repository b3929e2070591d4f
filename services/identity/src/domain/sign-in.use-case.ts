import { AppError } from "@payrail/contracts";
import { addressBucket, prefixedHexId, randomToken, sha256Hex } from "@payrail/runtime";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import { SESSION_TTL_MS, type MerchantUsersDeps } from "./merchant-users.deps.ts";
import { passwordMatches } from "./password.ts";
import { admitAttempt, giveBackAttempt, type Admission } from "./sign-in-attempts.ts";
import { SIGN_IN_LIMITS } from "./sign-in-delay.ts";

/**
 * Email and password to a new session, within the sign-in limits per client address and per
 * account (docs/decisions/0004-sign-in-limits.md): the attempt is counted against both before
 * the password is checked; in a delay it is refused unchecked, so the answer says nothing of
 * the password. A right password takes the attempt back and clears the account's count.
 */
export async function signIn(deps: MerchantUsersDeps, input: { email: string; password: string; client_address?: string | undefined }) {
  const email = input.email.trim().toLowerCase();
  const now = deps.now();
  const bucket = addressBucket(input.client_address);
  const byAddress = bucket ? await admitAttempt(deps.signInFailures, `address:${bucket}`, SIGN_IN_LIMITS.address, now) : null;
  if (byAddress && !byAddress.allowed) throw tooManyAttempts(byAddress.retryAfterMs);
  const accountKey = `account:${sha256Hex(email)}`;
  const byAccount = await admitAttempt(deps.signInFailures, accountKey, SIGN_IN_LIMITS.account, now);
  if (!byAccount.allowed) {
    // Not tried, so not held against the address.
    if (byAddress) await giveBackAttempt(deps.signInFailures, byAddress.counted);
    throw tooManyAttempts(byAccount.retryAfterMs);
  }

  const user = await deps.merchantUsers.findByEmail(email);
  const ok = await passwordMatches(user?.status === "active" ? user.passwordHash : null, input.password);
  if (!ok || !user) {
    const delayMs = Math.max(delayStarted(byAccount, now), byAddress ? delayStarted(byAddress, now) : 0);
    if (delayMs > 0) throw tooManyAttempts(delayMs);
    throw new AppError("invalid_credentials", "the email or password is wrong");
  }
  await deps.signInFailures.clear(accountKey);
  if (byAddress) await giveBackAttempt(deps.signInFailures, byAddress.counted);
  const token = randomToken(32);
  const nowIso = new Date(now).toISOString();
  const expiresAt = new Date(now + SESSION_TTL_MS).toISOString();
  await deps.dashboardSessions.insert({
    _id: sha256Hex(token),
    sessionId: prefixedHexId("ses_"),
    userId: user._id,
    merchantId: user.merchantId,
    epoch: user.sessionEpoch,
    createdAt: nowIso,
    expiresAt,
    revokedAt: null,
  });
  return { session_token: token, expires_at: expiresAt, user: toMerchantUserView(user) };
}

/** The delay a failed attempt started (ms from now), or 0. */
function delayStarted(admission: Admission & { allowed: true }, now: number): number {
  const until = admission.counted.next.blockedUntil;
  return until ? Date.parse(until) - now : 0;
}

/** The same answer whatever the password: the delay, not the guess, is what it reports. */
function tooManyAttempts(retryAfterMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError("too_many_attempts", `too many sign-in attempts; try again in ${retryAfter} s`, { retryAfter });
}
