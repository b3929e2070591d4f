import { createHmac } from "node:crypto";

/**
 * A user registered, by phone, as an operator of a merchant (docs/api-notes.md, Credentials): their auth token may
 * decide and pay out that merchant's refunds. `_id` is `<merchantId>|<E.164 phone>`, so the
 * store's `_id` uniqueness keeps one record per pair without a separate index.
 */
export interface OperatorRecord {
  _id: string;
  merchantId: string;
  /** E.164. The user need not exist yet: the phone is what their future token will carry. */
  phone: string;
  createdAt: string;
}

export function operatorId(merchantId: string, phone: string): string {
  return `${merchantId}|${phone}`;
}

/**
 * How the audit log and the admin's answers name an operator: `opr_` and an HMAC of the pair
 * under the service's key. The phone is personal and its space small enough to try every number
 * against a plain hash; the id is the same for the pair every time, old records included.
 */
export function operatorPublicId(codeKey: Buffer, merchantId: string, phone: string): string {
  return `opr_${createHmac("sha256", codeKey).update(`operator\n${operatorId(merchantId, phone)}`).digest("hex").slice(0, 32)}`;
}
