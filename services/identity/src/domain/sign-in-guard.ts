import { AppError } from "@payrail/contracts";
import { addressBucket, sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { admitAttempt, giveBackAttempt, type CountedFor } from "./sign-in-attempts.ts";
import { SIGN_IN_LIMITS } from "./sign-in-delay.ts";

/** One sign-in attempt (a password or a second-factor code), counted against its account and address. */
export interface CountedSignIn {
  now: number;
  accountKey: string;
  byAccount: CountedFor;
  byAddress: CountedFor | null;
}

/**
 * Counts the attempt against the client address and the account before anything is checked
 * (docs/decisions/0004-sign-in-limits.md); in a delay it is refused unchecked (429), so the
 * answer says nothing of the guess. A wrong TOTP code counts on the same account key as a wrong password.
 */
export async function countSignInAttempt(deps: MerchantUsersDeps, email: string, clientAddress: string | undefined): Promise<CountedSignIn> {
  const now = deps.now();
  const bucket = addressBucket(clientAddress);
  const byAddress = bucket ? await admitAttempt(deps.signInFailures, `address:${bucket}`, SIGN_IN_LIMITS.address, now) : null;
  if (byAddress && !byAddress.allowed) throw tooManyAttempts(byAddress.retryAfterMs);
  const accountKey = `account:${sha256Hex(email)}`;
  const byAccount = await admitAttempt(deps.signInFailures, accountKey, SIGN_IN_LIMITS.account, now);
  if (!byAccount.allowed) {
    // Not tried, so not held against the address.
    if (byAddress) await giveBackAttempt(deps.signInFailures, byAddress.counted);
    throw tooManyAttempts(byAccount.retryAfterMs);
  }
  return { now, accountKey, byAccount: byAccount.counted, byAddress: byAddress ? byAddress.counted : null };
}

/** What a failed attempt answers: the delay it started, if any, else `wrong`. */
export function failedAttempt(counted: CountedSignIn, wrong: AppError): AppError {
  const delayMs = Math.max(delayStarted(counted.byAccount, counted.now), counted.byAddress ? delayStarted(counted.byAddress, counted.now) : 0);
  return delayMs > 0 ? tooManyAttempts(delayMs) : wrong;
}

/** A right credential takes the attempt back from the address and clears the account's count. */
export async function attemptSucceeded(deps: MerchantUsersDeps, counted: CountedSignIn): Promise<void> {
  await deps.signInFailures.clear(counted.accountKey);
  if (counted.byAddress) await giveBackAttempt(deps.signInFailures, counted.byAddress);
}

/**
 * A right password of a user with two-factor: only this attempt is taken back. The account's
 * count stays until the second factor is right, or knowing the password would let an attacker
 * clear the wrong codes' count before each round of guesses.
 */
export async function attemptGivenBack(deps: MerchantUsersDeps, counted: CountedSignIn): Promise<void> {
  await giveBackAttempt(deps.signInFailures, counted.byAccount);
  if (counted.byAddress) await giveBackAttempt(deps.signInFailures, counted.byAddress);
}

/** The delay a failed attempt started (ms from now), or 0. */
function delayStarted(counted: CountedFor, now: number): number {
  const until = counted.next.blockedUntil;
  return until ? Date.parse(until) - now : 0;
}

/** The same answer whatever the guess: the delay, not the guess, is what it reports. */
export function tooManyAttempts(retryAfterMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError("too_many_attempts", `too many sign-in attempts; try again in ${retryAfter} s`, { retryAfter });
}

