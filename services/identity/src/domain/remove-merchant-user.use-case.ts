import { AppError, requireMerchantManager } from "@payrail/contracts";
import { auditEvents, type AuditMeta } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { requireOwnerFor, requireTeamMember, withOwnerKept } from "./team-rules.ts";

/** Removes the user, with its audit entry; their sessions stop resolving at once (the session finds no user). */
export async function removeMerchantUser(deps: MerchantUsersDeps, meta: AuditMeta, input: { merchant_id: string; user_id: string }) {
  const { principal } = meta;
  requireMerchantManager(principal, input.merchant_id);
  const user = await requireTeamMember(deps.merchantUsers, input.merchant_id, input.user_id);
  requireOwnerFor(principal, user.role);
  const at = new Date(deps.now()).toISOString();
  const object = { type: "team_member", id: input.user_id };
  const audit = auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action: "team_member.removed", object, at, livemode: deps.livemode });
  const removed = await withOwnerKept(deps.merchantUsers, user, async () => ((await deps.merchantUsers.remove(input.merchant_id, input.user_id, audit)) ? true : null));
  if (!removed) {
    throw new AppError("merchant_user_not_found", `no user ${input.user_id}`, { param: "user_id" });
  }
  deps.events.written();
  return { id: input.user_id, removed: true as const };
}
