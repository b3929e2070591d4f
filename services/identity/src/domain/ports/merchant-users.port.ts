import type { DashboardRole } from "@payrail/contracts";
import type { MerchantUserRecord } from "../merchant-user.entity.ts";

/** Storage of dashboard users. Every change is one conditional write on the user's document. */
export interface MerchantUsersPort {
  /** Inserts; false when the email already belongs to a user. */
  insert(user: MerchantUserRecord): Promise<boolean>;
  findById(id: string): Promise<MerchantUserRecord | null>;
  findByEmail(email: string): Promise<MerchantUserRecord | null>;
  findByInvitation(hash: string): Promise<MerchantUserRecord | null>;
  /** A new invitation for a user still invited (role may change with it); null when no longer invited. */
  reinvite(id: string, role: DashboardRole, hash: string, expiresAt: string): Promise<MerchantUserRecord | null>;
  /** Spends the invitation (if still this one and unexpired at `now`) and sets the password. */
  accept(hash: string, passwordHash: string, now: string): Promise<MerchantUserRecord | null>;
  /** Sets the role if it is still `from`, ending the user's sessions; null when it changed meanwhile. */
  changeRole(merchantId: string, id: string, from: DashboardRole, to: DashboardRole): Promise<MerchantUserRecord | null>;
  remove(merchantId: string, id: string): Promise<boolean>;
  listForMerchant(merchantId: string, limit: number): Promise<MerchantUserRecord[]>;
  /**
   * Takes one owner off the merchant's team count in one conditional write that needs two or more
   * left; false (nothing written) when this is the last. Called before the user's own write.
   */
  releaseOwner(merchantId: string): Promise<boolean>;
  /** Counts one more active owner (after the user's write; or to give back a release whose write lost). */
  addOwner(merchantId: string): Promise<void>;
}
