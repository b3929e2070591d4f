import { z } from "zod";
import { MerchantUserView } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** A signed-in dashboard session: its token (shown once, stored as a hash) goes in a cookie. */
export const DashboardSessionIssued = z.object({ session_token: z.string(), expires_at: z.string(), user: MerchantUserView });

/**
 * The password was right but the user has two-factor on: the second step (Sign In Second
 * Step) takes this token with a code within 5 minutes (docs/decisions/0052-dashboard-two-factor-and-reset.md).
 */
export const TwoFactorChallenge = z.object({ two_factor_token: z.string(), expires_at: z.string() });

/**
 * Signs a dashboard user in: a new server-side session whose token (shown once, stored as a
 * hash) the gateway puts in a cookie, or, for a user with two-factor on, a short-lived
 * challenge for the second step. A wrong email or password is 401 `invalid_credentials`.
 * Attempts are limited per account whatever the address (5 in 15 minutes) and per client
 * address across emails (20): past either, a growing delay (1 minute, doubling, at most 15)
 * during which every attempt, the right password too, is 429 `too_many_attempts` with
 * `retryAfter` (docs/decisions/0004-sign-in-limits.md). Called by the gateway only.
 */
export const signInOp = defineOperation(
  "identity.signIn",
  z.object({
    email: z.string().max(254),
    password: z.string().max(256),
    /** The client's address as the gateway decided it (TRUST_PROXY). */
    client_address: z.string().max(64).optional(),
  }),
  z.union([DashboardSessionIssued, TwoFactorChallenge]),
);
