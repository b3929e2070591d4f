import type { DomainEvent } from "@payrail/contracts";
import { DuplicateKeyError, withEvents, type OutboxFields, type Store } from "@payrail/store";
import type { ReturnWarningsPort } from "../domain/returns/ports/return-warnings.port.ts";

export const RETURN_WARNINGS_COLLECTION = "return_rate_warnings";

type WarningDoc = { _id: string; warned: boolean; warnedAt: string | null } & OutboxFields;

/** One document per merchant and group (`<merchant id>:<group>`); its warning event travels in its outbox. */
export class ReturnWarningRepository implements ReturnWarningsPort {
  constructor(private readonly store: Store) {}

  private get warnings() {
    return this.store.collection<WarningDoc>(RETURN_WARNINGS_COLLECTION);
  }

  async warnOnce(merchantId: string, group: string, at: string, event: DomainEvent): Promise<boolean> {
    try {
      const warned = await this.warnings.findOneAndUpdate(
        { _id: `${merchantId}:${group}`, $or: [{ warned: false }, { warned: null }] },
        withEvents({ $set: { warned: true, warnedAt: at } }, [event]),
        { upsert: true },
      );
      return warned !== null;
    } catch (err) {
      // Warned already: the upsert met the existing (warned) document's key.
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  async clear(merchantId: string, group: string): Promise<void> {
    await this.warnings.findOneAndUpdate({ _id: `${merchantId}:${group}`, warned: true }, { $set: { warned: false } });
  }
}
