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

/** Whether the user, as stored, is one of the owners the team counts (an invited owner is not yet). */
export const isCountedOwner = (user: Pick<MerchantUserRecord, "role" | "status">) => user.role === "owner" && user.status === "active";

/**
 * Runs `write` (the user's own conditional write) under "a merchant keeps at least one owner":
 * an active owner's change first takes them off the team's owner count, which refuses the last
 * one (409 `last_owner`) in that single conditional write; a write that then loses (the user
 * changed meanwhile) gives the place back. Two owners demoting each other cannot both pass.
 */
export async function withOwnerKept<T>(users: MerchantUsersPort, user: MerchantUserRecord, write: () => Promise<T | null>): Promise<T | null> {
  if (!isCountedOwner(user)) return write();
  if (!(await users.releaseOwner(user.merchantId))) throw new AppError("last_owner", "a merchant keeps at least one owner");
  const written = await write();
  if (!written) await users.addOwner(user.merchantId);
  return written;
}
