import { requireMerchantManager, type DashboardRole, type MerchantUserView, type Principal } from "@payrail/contracts";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { isCountedOwner, requireOwnerFor, requireTeamMember, withOwnerKept } from "./team-rules.ts";

/**
 * A new role; the write also raises the user's session epoch, ending their sessions. The write
 * expects the role it read: when a racing change wins, the rules are checked again on the new one.
 */
export async function changeMerchantUserRole(
  deps: MerchantUsersDeps,
  principal: Principal,
  input: { merchant_id: string; user_id: string; role: DashboardRole },
): Promise<MerchantUserView> {
  requireMerchantManager(principal, input.merchant_id);
  for (;;) {
    const user = await requireTeamMember(deps.merchantUsers, input.merchant_id, input.user_id);
    if (user.role === input.role) return toMerchantUserView(user);
    requireOwnerFor(principal, user.role, input.role);
    const changed = await withOwnerKept(deps.merchantUsers, user, () => deps.merchantUsers.changeRole(input.merchant_id, input.user_id, user.role, input.role));
    if (changed) {
      if (isCountedOwner(changed)) await deps.merchantUsers.addOwner(changed.merchantId);
      return toMerchantUserView(changed);
    }
  }
}
