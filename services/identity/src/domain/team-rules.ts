import { AppError, type DashboardRole, type Principal } from "@payrail/contracts";
import type { MerchantUserRecord } from "./merchant-user.entity.ts";
import type { MerchantUsersPort } from "./ports/merchant-users.port.ts";

/** Only an owner (or the administrator) grants, changes or removes the owner role. */
export function requireOwnerFor(principal: Principal, ...roles: DashboardRole[]): void {
  if (!roles.includes("owner") || principal.kind === "admin") return;
  if (principal.kind === "merchant" && principal.role === "owner") return;
  throw new AppError("permission_denied", "only an owner may grant, change or remove the owner role");
}

/** The merchant's user the team action names, or 404 (another merchant's user is as absent as an unknown one). */
export async function requireTeamMember(users: MerchantUsersPort, merchantId: string, userId: string): Promise<MerchantUserRecord> {
  const user = await users.findById(userId);
  if (!user || user.merchantId !== merchantId) throw new AppError("merchant_user_not_found", `no user ${userId}`, { param: "user_id" });
  return user;
}

/**
 * A merchant keeps at least one owner. Counted before the write, so two owners demoting each
 * other at the same moment could both pass; the administrator can then appoint one again.
 */
export async function keepAnOwner(users: MerchantUsersPort, user: MerchantUserRecord): Promise<void> {
  if (user.role !== "owner" || user.status !== "active") return;
  if ((await users.countOwners(user.merchantId)) <= 1) throw new AppError("last_owner", "a merchant keeps at least one owner");
}
