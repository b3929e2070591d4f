import type { RefundTransferRecord } from "../refund-transfer.entity.ts";
import type { TransferStatus } from "../../transfers/ports/transfer.port.ts";

/** Storage of refund payouts; every write is one conditional write. */
export interface RefundTransfersPort {
  /** Inserts the record, or returns the one that already exists for the payout. */
  findOrCreate(record: RefundTransferRecord): Promise<RefundTransferRecord>;
  find(payoutId: string): Promise<RefundTransferRecord | null>;
  findByTransferId(transferId: string): Promise<RefundTransferRecord | null>;
  /** Records the provider's transfer id once (a repeat keeps the first). */
  recordTransferId(payoutId: string, transferId: string, at: string): Promise<void>;
  /** `pending` → a final status (with why, when it failed), once; null when the record is no longer pending. */
  settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
  ): Promise<RefundTransferRecord | null>;
  /**
   * Payouts still `pending` whose last change lies between `after` and `before`, in that order
   * (the reconciler pages through them), skipping those it found nothing for since `before`.
   */
  pendingBetween(after: string, before: string, limit: number): Promise<RefundTransferRecord[]>;
  /** The reconciler found no transfer at the provider for this payout: not again before the next cut-off. */
  markReconciled(payoutId: string, at: string): Promise<void>;
}
