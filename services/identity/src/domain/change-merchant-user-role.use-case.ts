import { requireMerchantManager, type DashboardRole, type MerchantUserView } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { isCountedOwner, requireOwnerFor, requireTeamMember, withOwnerKept } from "./team-rules.ts";

/**
 * A new role, with its audit entry; the write also raises the user's session epoch, ending their sessions. The write
 * expects the role it read: when a racing change wins, the rules are checked again on the new one.
 */
export async function changeMerchantUserRole(
  deps: MerchantUsersDeps,
  meta: AuditMeta,
  input: { merchant_id: string; user_id: string; role: DashboardRole },
): Promise<MerchantUserView> {
  const { principal } = meta;
  requireMerchantManager(principal, input.merchant_id);
  for (;;) {
    const user = await requireTeamMember(deps.merchantUsers, input.merchant_id, input.user_id);
    if (user.role === input.role) return toMerchantUserView(user);
    requireOwnerFor(principal, user.role, input.role);
    const at = new Date(deps.now()).toISOString();
    const object = { type: "team_member", id: input.user_id };
    const audit = auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action: "team_member.role_changed", object, at, livemode: deps.livemode });
    const changed = await withOwnerKept(deps.merchantUsers, user, () => deps.merchantUsers.changeRole(input.merchant_id, input.user_id, user.role, input.role, audit));
    if (changed) {
      deps.events.written();
      if (isCountedOwner(changed)) await deps.merchantUsers.addOwner(changed.merchantId);
      return toMerchantUserView(changed);
    }
  }
}
