import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { hashPassword } from "./password.ts";
import { isCountedOwner } from "./team-rules.ts";

/** Sets the invited user's password and spends the token, in one conditional write. */
export async function acceptInvitation(deps: MerchantUsersDeps, input: { token: string; password: string }) {
  const invalid = new AppError("invitation_invalid", "this invitation link is unknown, used or expired", { param: "token" });
  const hash = sha256Hex(input.token);
  const now = new Date(deps.now()).toISOString();
  const invited = await deps.merchantUsers.findByInvitation(hash);
  if (!invited || (invited.invitationExpiresAt ?? "") <= now) throw invalid;
  const accepted = await deps.merchantUsers.accept(hash, await hashPassword(input.password), now);
  if (!accepted) throw invalid;
  if (isCountedOwner(accepted)) await deps.merchantUsers.addOwner(accepted.merchantId);
  return toMerchantUserView(accepted);
}
