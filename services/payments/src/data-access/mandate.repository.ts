import type { DomainEvent } from "@payrail/contracts";
import { insertIfAbsent, insertWithEvents, withEvents, type Store } from "@payrail/store";
import type { AccountValidationRecord } from "../domain/bank-accounts/account-validation.ts";
import type { MandateRecord } from "../domain/mandates/mandate.entity.ts";
import type { MandatesPort } from "../domain/mandates/ports/mandates.port.ts";

export const MANDATES_COLLECTION = "mandates";

/**
 * Mandates by id. Every read and write names the `_id`; the checkout index serves support
 * look-ups and `payrail check`. No TTL index, on purpose: mandates are kept (docs/decisions/0033-mandates.md).
 */
export class MandateRepository implements MandatesPort {
  constructor(private readonly store: Store) {}

  private get mandates() {
    return this.store.collection<MandateRecord>(MANDATES_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.mandates.createIndex({ keys: { checkoutId: 1, acceptedAt: 1 }, name: "checkout" });
  }

  create(record: MandateRecord, event: DomainEvent): Promise<boolean> {
    return insertIfAbsent(this.mandates, insertWithEvents(record, [event]));
  }

  find(mandateId: string): Promise<MandateRecord | null> {
    return this.mandates.findOne({ _id: mandateId });
  }

  markDebit(mandateId: string, at: string, validation: AccountValidationRecord): Promise<MandateRecord | null> {
    return this.mandates.findOneAndUpdate({ _id: mandateId, status: "active" }, { $set: { lastDebitAt: at, validation } });
  }

  async recordValidation(mandateId: string, validation: AccountValidationRecord): Promise<void> {
    await this.mandates.findOneAndUpdate({ _id: mandateId, validation: null }, { $set: { validation } });
  }

  revoke(mandateId: string, at: string, event: DomainEvent): Promise<MandateRecord | null> {
    return this.mandates.findOneAndUpdate(
      { _id: mandateId, status: "active" },
      withEvents({ $set: { status: "revoked", revokedAt: at, version: 2 } }, [event]),
    );
  }
}
