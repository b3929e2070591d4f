import { AppError } from "@payrail/contracts";
import { randomToken, sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { openSession } from "./open-session.ts";
import { passwordMatches } from "./password.ts";
import { attemptGivenBack, attemptSucceeded, countSignInAttempt, failedAttempt } from "./sign-in-guard.ts";

/** How long the second step may take after a right password. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * Email and password to a new session, within the sign-in limits per client address and per
 * account (docs/decisions/0004-sign-in-limits.md): the attempt is counted against both before
 * the password is checked; in a delay it is refused unchecked, so the answer says nothing of
 * the password. A right password takes the attempt back and clears the account's count; a user
 * with two-factor on gets a challenge instead of a session, the count kept for the second step (docs/decisions/0052-dashboard-two-factor-and-reset.md).
 */
export async function signIn(deps: MerchantUsersDeps, input: { email: string; password: string; client_address?: string | undefined }) {
  const email = input.email.trim().toLowerCase();
  const counted = await countSignInAttempt(deps, email, input.client_address);
  const user = await deps.merchantUsers.findByEmail(email);
  const ok = await passwordMatches(user?.status === "active" ? user.passwordHash : null, input.password);
  if (!ok || !user) throw failedAttempt(counted, new AppError("invalid_credentials", "the email or password is wrong"));
  if (user.totp?.enabled !== true) {
    await attemptSucceeded(deps, counted);
    return openSession(deps, user, counted.now);
  }
  await attemptGivenBack(deps, counted);
  const token = randomToken(32);
  const expiresAt = new Date(counted.now + CHALLENGE_TTL_MS).toISOString();
  await deps.signInChallenges.insert({ _id: sha256Hex(token), userId: user._id, epoch: user.sessionEpoch, expiresAt });
  return { two_factor_token: token, expires_at: expiresAt };
}
