import { AppError } from "@payrail/contracts";
import { prefixedHexId, randomToken, sha256Hex } from "@payrail/runtime";
import { addressBucket } from "./address-bucket.ts";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import { SESSION_TTL_MS, SIGN_IN_FAILURES, type MerchantUsersDeps } from "./merchant-users.deps.ts";
import { passwordMatches } from "./password.ts";

/**
 * Email and password to a new session. Failures count per client address and email (API.md
 * §12: one client cannot lock the account for others); the 5th within 15 minutes locks that
 * pair for 15 minutes, during which even the right password is refused.
 */
export async function signIn(deps: MerchantUsersDeps, input: { email: string; password: string; client_address?: string | undefined }) {
  const email = input.email.trim().toLowerCase();
  const key = sha256Hex(`${addressBucket(input.client_address) ?? "unknown"}|${email}`);
  const now = deps.now();
  const nowIso = new Date(now).toISOString();
  const failures = await deps.signInFailures.find(key);
  if (failures?.lockedUntil && failures.lockedUntil > nowIso) throw lockedOut(failures.lockedUntil, now);

  const user = await deps.merchantUsers.findByEmail(email);
  const ok = await passwordMatches(user?.status === "active" ? user.passwordHash : null, input.password);
  if (!ok || !user) {
    const counted = await deps.signInFailures.count(
      key,
      nowIso,
      new Date(now - SIGN_IN_FAILURES.windowMs).toISOString(),
      new Date(now + SIGN_IN_FAILURES.windowMs).toISOString(),
    );
    if (counted.count >= SIGN_IN_FAILURES.limit) {
      const until = new Date(now + SIGN_IN_FAILURES.lockMs).toISOString();
      await deps.signInFailures.lock(key, until);
      throw lockedOut(until, now);
    }
    throw new AppError("invalid_credentials", "the email or password is wrong");
  }
  if (failures) await deps.signInFailures.clear(key);
  const token = randomToken(32);
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

function lockedOut(until: string, now: number): AppError {
  return new AppError("too_many_attempts", "too many failed sign-ins; try again later", {
    retryAfter: Math.max(1, Math.ceil((Date.parse(until) - now) / 1000)),
  });
}
