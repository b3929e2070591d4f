import type { DashboardRole, DomainEvent } from "@payrail/contracts";
import type { MerchantUserRecord, TotpState } from "../merchant-user.entity.ts";

/** Storage of dashboard users. Every change is one conditional write on the user's document. */
export interface MerchantUsersPort {
  /** Inserts with its audit entry (one write); false when the email already belongs to a user. */
  insert(user: MerchantUserRecord, audit?: readonly DomainEvent[]): Promise<boolean>;
  findById(id: string): Promise<MerchantUserRecord | null>;
  findByEmail(email: string): Promise<MerchantUserRecord | null>;
  findByInvitation(hash: string): Promise<MerchantUserRecord | null>;
  /** A new invitation for a user still invited (role may change with it); null when no longer invited. */
  reinvite(id: string, role: DashboardRole, hash: string, expiresAt: string, audit?: readonly DomainEvent[]): Promise<MerchantUserRecord | null>;
  /** Spends the invitation (if still this one and unexpired at `now`) and sets the password. */
  accept(hash: string, passwordHash: string, now: string): Promise<MerchantUserRecord | null>;
  /** Sets the role if it is still `from`, ending the user's sessions; null when it changed meanwhile. */
  changeRole(merchantId: string, id: string, from: DashboardRole, to: DashboardRole, audit?: readonly DomainEvent[]): Promise<MerchantUserRecord | null>;
  /** Removes the merchant's user with its audit entry (one write); false when there is no such user. */
  remove(merchantId: string, id: string, audit?: readonly DomainEvent[]): Promise<boolean>;
  /** A new pending TOTP secret, unless two-factor is already on; null then. */
  startTotp(id: string, pending: TotpState): Promise<MerchantUserRecord | null>;
  /** Turns on the pending secret `secretSealed` with its recovery codes and first step; null when it changed meanwhile. */
  enableTotp(id: string, secretSealed: string, step: number, recovery: Record<string, boolean>, audit?: readonly DomainEvent[]): Promise<MerchantUserRecord | null>;
  /** Takes the TOTP step if it is later than the last one taken (the replay guard); false otherwise. */
  takeTotpStep(id: string, step: number): Promise<boolean>;
  /** Spends a recovery code if it is still unspent; false otherwise. */
  spendRecoveryCode(id: string, hash: string): Promise<boolean>;
  /** Removes two-factor if its secret is still `secretSealed`. */
  disableTotp(id: string, secretSealed: string, audit?: readonly DomainEvent[]): Promise<boolean>;
  /** Replaces any outstanding reset link of an active user; null when there is none with this email. */
  setResetLink(email: string, hash: string, expiresAt: string): Promise<MerchantUserRecord | null>;
  /** Spends the reset link (if unexpired at `now`), sets the password and ends every session, in one write. */
  resetPassword(hash: string, passwordHash: string, now: string): Promise<MerchantUserRecord | null>;
  listForMerchant(merchantId: string, limit: number): Promise<MerchantUserRecord[]>;
  /**
   * Takes one owner off the merchant's team count in one conditional write that needs two or more
   * left; false (nothing written) when this is the last. Called before the user's own write.
   */
  releaseOwner(merchantId: string): Promise<boolean>;
  /** Counts one more active owner (after the user's write; or to give back a release whose write lost). */
  addOwner(merchantId: string): Promise<void>;
}
