import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";
import { TwoFactorCode } from "./sign-in-second-step.op.ts";

/**
 * Starts (or starts again) the signed-in dashboard user's TOTP enrolment: a new secret, kept
 * sealed until confirmed, returned once with its `otpauth://` URI for an authenticator app.
 * 409 `two_factor_enabled` when two-factor is already on. Dashboard users only (their own account).
 */
export const startTotpEnrolmentOp = defineOperation(
  "identity.startTotpEnrolment",
  z.object({}),
  z.object({ secret: z.string(), otpauth_uri: z.string() }),
);

/**
 * Confirms the enrolment with a code from the app: two-factor is on, and the 10 recovery codes
 * (stored hashed) are returned this once. A wrong code is 401 `invalid_two_factor_code`; with no
 * enrolment started, 409 `two_factor_not_started`.
 */
export const confirmTotpEnrolmentOp = defineOperation(
  "identity.confirmTotpEnrolment",
  z.object({ code: TwoFactorCode }),
  z.object({ recovery_codes: z.array(z.string()) }),
);

/**
 * Turns the user's two-factor off; needs a current code or an unused recovery code (401
 * `invalid_two_factor_code` otherwise, counted as a failed sign-in).
 */
export const disableTotpOp = defineOperation("identity.disableTotp", z.object({ code: TwoFactorCode }), z.object({ enabled: z.literal(false) }));

/** Whether the signed-in user has two-factor on, and whether their team requires it. */
export const getTwoFactorStatusOp = defineOperation(
  "identity.getTwoFactorStatus",
  z.object({}),
  z.object({ enabled: z.boolean(), recovery_codes_left: z.number().int(), team_requires: z.boolean() }),
);

/**
 * An owner's team setting: every dashboard user of the merchant without two-factor must enrol at
 * their next sign-in before any other page. Owners only (403 `permission_denied`).
 */
export const setTeamTwoFactorOp = defineOperation(
  "identity.setTeamTwoFactor",
  z.object({ merchant_id: z.string().min(1).max(64), required: z.boolean() }),
  z.object({ required: z.boolean() }),
);
