import type { ProviderTransferRecord } from "../provider-transfer.record.ts";

/** Storage of one kind of merchant-sent transfer record; every write is one conditional write. */
export interface ProviderTransfersPort<R extends ProviderTransferRecord> {
  /** Inserts the record, or returns the one that already exists under its id. */
  findOrCreate(record: R): Promise<R>;
  find(id: string): Promise<R | null>;
  findByTransferId(transferId: string): Promise<R | null>;
  /** Records the provider's transfer id once (a repeat keeps the first). */
  recordTransferId(id: string, transferId: string, at: string): Promise<void>;
  /**
   * Records still `pending` whose last change lies between `after` and `before`, in that order
   * (the reconciler pages through them), skipping those it found nothing for since `before`.
   */
  pendingBetween(after: string, before: string, limit: number): Promise<R[]>;
  /** The reconciler found no transfer at the provider for this record: not again before the next cut-off. */
  markReconciled(id: string, at: string): Promise<void>;
}
