import type { MerchantView } from "@payrail/contracts";

export interface MerchantRecord {
  _id: string;
  name: string;
  /** The merchant's funding source at the transfer provider (where payments land). */
  destinationFundingSource: string | null;
  createdAt: string;
}

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
  return { id: m._id, name: m.name, destination_funding_source: m.destinationFundingSource, created_at: m.createdAt };
}
