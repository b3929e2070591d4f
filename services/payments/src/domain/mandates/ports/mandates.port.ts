import type { DomainEvent } from "@payrail/contracts";
import type { AccountValidationRecord } from "../../bank-accounts/account-validation.ts";
import type { MandateRecord } from "../mandate.entity.ts";

/** Mandates, each written with its events in one write (the outbox). */
export interface MandatesPort {
  /** Inserts a new mandate with its mandate.created event; false when its id exists already. */
  create(record: MandateRecord, event: DomainEvent): Promise<boolean>;
  find(mandateId: string): Promise<MandateRecord | null>;
  /**
   * One conditional write: an `active` mandate records a debit made on it now, and the
   * validation of the account debited; null when it is absent or revoked (no debit may then be made).
   */
  markDebit(mandateId: string, at: string, validation: AccountValidationRecord): Promise<MandateRecord | null>;
  /** Records the account's validation on a mandate that has none yet (the consumer verified micro-deposits after accepting it). */
  recordValidation(mandateId: string, validation: AccountValidationRecord): Promise<void>;
  /** One conditional write: `active` becomes `revoked` with its mandate.revoked event; null when it was not active. */
  revoke(mandateId: string, at: string, event: DomainEvent): Promise<MandateRecord | null>;
}
