import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";
import { DashboardSessionIssued } from "./sign-in.op.ts";

/** A six-digit TOTP code, or a recovery code (`xxxx-xxxx-xxxx-xxxx`, dashes and case optional). */
export const TwoFactorCode = z.string().trim().min(6).max(32);

/**
 * The second sign-in step of a user with two-factor on: the challenge from Sign In and a current
 * TOTP code (each 30-second step accepted once) or an unused recovery code (spent by this call).
 * A wrong code is 401 `invalid_two_factor_code` and counts as a failed sign-in of the account
 * (the limits of docs/decisions/0004-sign-in-limits.md); an unknown, used or expired challenge is
 * 401 `session_invalid`. Called by the gateway only.
 */
export const signInSecondStepOp = defineOperation(
  "identity.signInSecondStep",
  z.object({ two_factor_token: z.string().min(1).max(128), code: TwoFactorCode, client_address: z.string().max(64).optional() }),
  DashboardSessionIssued,
);
