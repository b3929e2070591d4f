import type { MerchantView, TransactionPurpose } from "@payrail/contracts";

export interface MerchantRecord {
  _id: string;
  name: string;
  /** The merchant's funding source at the transfer provider (where payments land). */
  destinationFundingSource: string | null;
  /** Its bank at the transfer provider, where payouts go; absent on merchants created before payouts. */
  payoutFundingSource?: string | null;
  createdAt: string;
  /** The profile (PATCH /api/merchants/profile); absent on merchants created before it existed. */
  supportEmail?: string | null;
  supportPhone?: string | null;
  statementDescriptor?: string | null;
  defaultTransactionPurpose?: TransactionPurpose;
  /** An owner's setting: every dashboard user must have two-factor (enrol at their next sign-in). */
  requireTwoFactor?: boolean;
}

/** The fields an update may set: the profile (the merchant's own) and the funding sources (the admin's). */
export type MerchantChanges = Partial<
  Pick<MerchantRecord, "supportEmail" | "supportPhone" | "statementDescriptor" | "defaultTransactionPurpose" | "destinationFundingSource" | "payoutFundingSource">
>;

/** An API key, stored only as the SHA-256 of the key (`_id`), with its public prefix. */
export interface ApiKeyRecord {
  _id: string;
  merchantId: string;
  /** First characters of the key, safe to show and log; names the key for revocation. */
  prefix: string;
  livemode: boolean;
  createdAt: string;
  revokedAt: string | null;
}

export function toMerchantView(m: MerchantRecord): MerchantView {
  return {
    id: m._id,
    name: m.name,
    destination_funding_source: m.destinationFundingSource,
    payout_funding_source: m.payoutFundingSource ?? null,
    created_at: m.createdAt,
    support_email: m.supportEmail ?? null,
    support_phone: m.supportPhone ?? null,
    statement_descriptor: m.statementDescriptor ?? null,
    default_transaction_purpose: m.defaultTransactionPurpose ?? "goods",
  };
}
