import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { hashPassword } from "./password.ts";

/**
 * A new password with the emailed token: one conditional write spends the token (unexpired,
 * still this one), sets the password and raises the session epoch, ending every session.
 */
export async function resetPassword(deps: MerchantUsersDeps, input: { token: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  const user = await deps.merchantUsers.resetPassword(sha256Hex(input.token), passwordHash, new Date(deps.now()).toISOString());
  if (!user) throw new AppError("reset_link_invalid", "the reset link is unknown, used or expired; ask for a new one");
  return { reset: true as const };
}
