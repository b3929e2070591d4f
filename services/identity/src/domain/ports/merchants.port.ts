import type { DomainEvent } from "@payrail/contracts";
import type { ApiKeyRecord, MerchantChanges, MerchantRecord } from "../merchant.entity.ts";

/** Storage of merchants and their API keys. */
export interface MerchantsPort {
  /** Stores the merchant with its audit entry (one write); false when a merchant already holds the id (a second run of the same call made it). */
  insertMerchant(record: MerchantRecord, audit?: readonly DomainEvent[]): Promise<boolean>;
  findMerchant(merchantId: string): Promise<MerchantRecord | null>;
  /**
   * Sets the given fields of the merchant with its audit entry, in one write conditional on one of
   * them holding another value (a missing field counts as null); the merchant after, or null when
   * there is none or it holds these values already.
   */
  updateMerchant(merchantId: string, changes: MerchantChanges, audit?: readonly DomainEvent[]): Promise<MerchantRecord | null>;
  /**
   * Sets the owner's "require two-factor for the team" with its audit entry, in one write
   * conditional on the rule being the other way; the merchant after, or null when there is none
   * or the rule is that way already.
   */
  setRequireTwoFactor(merchantId: string, required: boolean, audit?: readonly DomainEvent[]): Promise<MerchantRecord | null>;
  /** Stores the key with its audit entry (one write); false when it is already stored (a second run of the same call issued it). */
  insertKey(record: ApiKeyRecord, audit?: readonly DomainEvent[]): Promise<boolean>;
  /** The key with this hash if it is not revoked. */
  findActiveKey(hash: string): Promise<ApiKeyRecord | null>;
  /** Marks the merchant's key with this prefix revoked, with its audit entry (one write); returns it, or null if none matched. */
  revokeKey(merchantId: string, prefix: string, at: string, audit?: readonly DomainEvent[]): Promise<ApiKeyRecord | null>;
  findKeyByPrefix(merchantId: string, prefix: string): Promise<ApiKeyRecord | null>;
  /** Up to `limit` merchants, newest first. */
  listMerchants(limit: number): Promise<MerchantRecord[]>;
  /** Up to `limit` of the merchant's keys, revoked ones included, oldest first. */
  listKeys(merchantId: string, limit: number): Promise<ApiKeyRecord[]>;
}
