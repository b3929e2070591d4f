import { AppError, requireMerchantManager, type Principal } from "@payrail/contracts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { requireOwnerFor, requireTeamMember, withOwnerKept } from "./team-rules.ts";

/** Removes the user; their sessions stop resolving at once (the session finds no user). */
export async function removeMerchantUser(deps: MerchantUsersDeps, principal: Principal, input: { merchant_id: string; user_id: string }) {
  requireMerchantManager(principal, input.merchant_id);
  const user = await requireTeamMember(deps.merchantUsers, input.merchant_id, input.user_id);
  requireOwnerFor(principal, user.role);
  const removed = await withOwnerKept(deps.merchantUsers, user, async () => ((await deps.merchantUsers.remove(input.merchant_id, input.user_id)) ? true : null));
  if (!removed) {
    throw new AppError("merchant_user_not_found", `no user ${input.user_id}`, { param: "user_id" });
  }
  return { id: input.user_id, removed: true as const };
}
