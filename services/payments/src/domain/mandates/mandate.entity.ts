import type { Mandate, MandateType } from "@payrail/contracts";
import type { OutboxFields } from "@payrail/store";
import { toValidationView, type AccountValidationRecord } from "../bank-accounts/account-validation.ts";

/**
 * A debit authorization (docs/api-notes.md, Mandates), owned by payments. Never swept: NACHA has the originator
 * keep it 2 years after the last debit or the revocation, hence `lastDebitAt` and `revokedAt`.
 */
export interface MandateRecord extends OutboxFields {
  /** `mdt_` + 32 hex. */
  _id: string;
  checkoutId: string;
  merchantId: string;
  userId: string;
  type: MandateType;
  status: "active" | "revoked";
  textVersion: string | null;
  textSha256: string | null;
  acceptedAt: string;
  /**
   * The first debit its words name, when not the day of acceptance (a re-linked subscription's
   * next charge): with it the words can be rendered again exactly. Absent: `acceptedAt`.
   */
  firstDebitOn?: string;
  ipAddress: string | null;
  userAgent: string | null;
  bankAccount: { institution: string | null; mask: string | null };
  lastDebitAt: string | null;
  revokedAt: string | null;
  /** 1 when created, 2 once revoked: its events' aggregate version. */
  version: number;
  /**
   * How its bank account was validated (NACHA's WEB rule), copied from the payment method when
   * it is created and at every debit; null until validated. Absent on mandates recorded before
   * validation was: their accounts came from the bank-data provider's Auth, so they show
   * `bank_data_provider` as of their acceptance (docs/decisions/0041-account-validation.md).
   */
  validation?: AccountValidationRecord | null;
}

export function toMandateView(m: MandateRecord): Mandate {
  return {
    id: m._id,
    checkout_id: m.checkoutId,
    type: m.type,
    status: m.status,
    text_version: m.textVersion,
    text_sha256: m.textSha256,
    accepted_at: m.acceptedAt,
    ip_address: m.ipAddress,
    user_agent: m.userAgent,
    bank_account: { institution: m.bankAccount.institution, mask: m.bankAccount.mask },
    last_debit_at: m.lastDebitAt,
    revoked_at: m.revokedAt,
    validation: m.validation === undefined ? { method: "bank_data_provider", validated_at: m.acceptedAt } : toValidationView(m.validation),
  };
}
