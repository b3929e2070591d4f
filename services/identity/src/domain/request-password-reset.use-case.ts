import { AppError } from "@payrail/contracts";
import { addressBucket, randomToken, sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { admitAttempt } from "./sign-in-attempts.ts";
import type { SignInRule } from "./sign-in-delay.ts";
import { tooManyAttempts } from "./sign-in-guard.ts";

const MINUTE = 60_000;
export const RESET_LINK_TTL_MS = 30 * MINUTE;

/**
 * Reset requests per client address (10 an hour, then a growing delay: 429) and per email (3 an
 * hour; further requests answer the same and send nothing, so the limit says nothing of the email).
 */
export const RESET_LIMITS = {
  address: { limit: 10, windowMs: 60 * MINUTE, baseDelayMs: 15 * MINUTE, maxDelayMs: 60 * MINUTE },
  email: { limit: 3, windowMs: 60 * MINUTE, baseDelayMs: 60 * MINUTE, maxDelayMs: 60 * MINUTE },
} as const satisfies Record<string, SignInRule>;

/**
 * Emails an active user a one-time link; the answer is the same whether or not the email has a
 * user. The token is stored hashed on the user (replacing an earlier link) and the mail is not
 * awaited, so the answer's timing does not tell either.
 */
export async function requestPasswordReset(deps: MerchantUsersDeps, input: { email: string; client_address?: string | undefined }) {
  const email = input.email.trim().toLowerCase();
  const now = deps.now();
  const bucket = addressBucket(input.client_address);
  if (bucket) {
    const byAddress = await admitAttempt(deps.signInFailures, `reset-address:${bucket}`, RESET_LIMITS.address, now);
    if (!byAddress.allowed) throw tooManyAttempts(byAddress.retryAfterMs);
  }
  const accepted = { accepted: true as const };
  if (email.length === 0) throw new AppError("invalid_request", "email is missing", { param: "email" });
  const byEmail = await admitAttempt(deps.signInFailures, `reset-email:${sha256Hex(email)}`, RESET_LIMITS.email, now);
  if (!byEmail.allowed) return accepted;
  const token = randomToken(32);
  const user = await deps.merchantUsers.setResetLink(email, sha256Hex(token), new Date(now + RESET_LINK_TTL_MS).toISOString());
  if (user && deps.resetMail) {
    const link = `${deps.publicUrl}/dashboard/reset?token=${encodeURIComponent(token)}`;
    void deps.resetMail.send({ to: user.email, link, expiresInMinutes: RESET_LINK_TTL_MS / MINUTE });
  }
  return accepted;
}
