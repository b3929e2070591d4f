import { z } from "zod";
import { NewPassword } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * "Forgot password?": emails an active user a one-time link (30 minutes, single use, stored
 * hashed). The answer is the same whether or not the email has a user. Limited per client
 * address (429 `too_many_attempts`) and per email (further requests send nothing).
 * Called by the gateway only.
 */
export const requestPasswordResetOp = defineOperation(
  "identity.requestPasswordReset",
  z.object({ email: z.string().max(254), client_address: z.string().max(64).optional() }),
  z.object({ accepted: z.literal(true) }),
);

/**
 * Sets a new password with the link's token, spending it in the same conditional write, and ends
 * every session of the user. An unknown, used or expired token is 401 `reset_link_invalid`.
 */
export const resetPasswordOp = defineOperation(
  "identity.resetPassword",
  z.object({ token: z.string().min(1).max(128), password: NewPassword }),
  z.object({ reset: z.literal(true) }),
);
