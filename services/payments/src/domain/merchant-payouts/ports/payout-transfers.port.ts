import type { DomainEvent } from "@payrail/contracts";
import type { TransferStatus } from "../../transfers/ports/transfer.port.ts";
import type { PayoutTransferRecord } from "../payout-transfer.entity.ts";

/** Storage of merchant payout transfers; every write is one conditional write. */
export interface PayoutTransfersPort {
  /** Inserts the record, or returns the one that already exists for the payout. */
  findOrCreate(record: PayoutTransferRecord): Promise<PayoutTransferRecord>;
  find(payoutId: string): Promise<PayoutTransferRecord | null>;
  findByTransferId(transferId: string): Promise<PayoutTransferRecord | null>;
  /** Records the provider's transfer id once (a repeat keeps the first). */
  recordTransferId(payoutId: string, transferId: string, at: string): Promise<void>;
  /** `pending` → a final status with its event, once; null when the record is no longer pending. */
  settle(
    payoutId: string,
    status: Exclude<TransferStatus, "pending">,
    failure: { code: string; reason: string } | null,
    at: string,
    event: (after: PayoutTransferRecord) => DomainEvent,
  ): Promise<PayoutTransferRecord | null>;
  /** Payout transfers still `pending` whose last change lies between `after` and `before`, oldest first, skipping those reconciled since `before`. */
  pendingBetween(after: string, before: string, limit: number): Promise<PayoutTransferRecord[]>;
  /** The reconciler found no transfer at the provider for this payout: not again before the next cut-off. */
  markReconciled(payoutId: string, at: string): Promise<void>;
}
