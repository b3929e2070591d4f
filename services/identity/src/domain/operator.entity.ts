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
