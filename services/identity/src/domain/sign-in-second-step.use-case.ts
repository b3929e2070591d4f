import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { openSession } from "./open-session.ts";
import { spendSecondFactor, wrongCode } from "./second-factor.ts";
import { attemptSucceeded, countSignInAttempt, failedAttempt } from "./sign-in-guard.ts";

/**
 * The challenge of a right password and a second factor to a session. The code is counted as a
 * sign-in attempt of the account (a wrong one 5 times in 15 minutes starts the delay); the
 * challenge is spent only by a right code, in one conditional delete, so it opens one session.
 */
export async function signInSecondStep(deps: MerchantUsersDeps, input: { two_factor_token: string; code: string; client_address?: string | undefined }) {
  const expired = new AppError("session_invalid", "the sign-in expired or was used; sign in again");
  const hash = sha256Hex(input.two_factor_token);
  const challenge = await deps.signInChallenges.findActive(hash, new Date(deps.now()).toISOString());
  if (!challenge) throw expired;
  const user = await deps.merchantUsers.findById(challenge.userId);
  if (!user || user.status !== "active" || user.sessionEpoch !== challenge.epoch) throw expired;
  const counted = await countSignInAttempt(deps, user.email, input.client_address);
  if (!(await spendSecondFactor(deps, user, input.code))) throw failedAttempt(counted, wrongCode());
  if (!(await deps.signInChallenges.spend(hash))) throw expired;
  await attemptSucceeded(deps, counted);
  return openSession(deps, user, counted.now);
}
