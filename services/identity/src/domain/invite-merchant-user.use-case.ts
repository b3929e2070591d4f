import { AppError, requireMerchantManager, type DashboardRole } from "@payrail/contracts";
import { auditEvents, prefixedHexId, randomToken, sha256Hex, type AuditMeta } from "@payrail/runtime";
import { toMerchantUserView, type MerchantUserRecord } from "./merchant-user.entity.ts";
import { INVITATION_TTL_MS, type MerchantUsersDeps } from "./merchant-users.deps.ts";
import { requireMerchantRecord } from "./require-merchant.ts";
import { requireOwnerFor } from "./team-rules.ts";

/** Invites a user (or invites a still-invited one again, with a new token); either write carries its audit entry. */
export async function inviteMerchantUser(
  deps: MerchantUsersDeps,
  meta: AuditMeta,
  input: { merchant_id: string; email: string; role: DashboardRole },
) {
  const { principal } = meta;
  requireMerchantManager(principal, input.merchant_id);
  requireOwnerFor(principal, input.role);
  await requireMerchantRecord(deps, input.merchant_id);
  const token = randomToken(32);
  const invitationHash = sha256Hex(token);
  const now = deps.now();
  const expiresAt = new Date(now + INVITATION_TTL_MS).toISOString();
  const user: MerchantUserRecord = {
    _id: prefixedHexId("usr_"),
    merchantId: input.merchant_id,
    email: input.email,
    role: input.role,
    status: "invited",
    passwordHash: null,
    invitationHash,
    invitationExpiresAt: expiresAt,
    sessionEpoch: 0,
    createdAt: new Date(now).toISOString(),
  };
  const audit = (id: string) =>
    auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action: "team_member.invited", object: { type: "team_member", id }, at: user.createdAt, livemode: deps.livemode });
  if (await deps.merchantUsers.insert(user, audit(user._id))) {
    deps.events.written();
    return { user: toMerchantUserView(user), invitation_token: token, expires_at: expiresAt };
  }
  const existing = await deps.merchantUsers.findByEmail(input.email);
  const taken = new AppError("merchant_user_exists", "this email already has a dashboard user", { param: "email" });
  if (!existing || existing.merchantId !== input.merchant_id) throw taken;
  const again = await deps.merchantUsers.reinvite(existing._id, input.role, invitationHash, expiresAt, audit(existing._id));
  if (!again) throw taken;
  deps.events.written();
  return { user: toMerchantUserView(again), invitation_token: token, expires_at: expiresAt };
}
