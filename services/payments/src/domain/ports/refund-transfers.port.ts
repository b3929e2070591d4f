import type { RefundTransferRecord } from "../refund-transfer.entity.ts";
import type { TransferStatus } from "./transfer.port.ts";

/** Storage of refund transfers; every write is one conditional write. */
export interface RefundTransfersPort {
  /** Inserts the record, or returns the one that already exists for the refund. */
  findOrCreate(record: RefundTransferRecord): Promise<RefundTransferRecord>;
  find(refundId: string): Promise<RefundTransferRecord | null>;
  findByTransferId(transferId: string): Promise<RefundTransferRecord | null>;
  /** Records the provider's transfer id once (a repeat keeps the first). */
  recordTransferId(refundId: string, transferId: string, at: string): Promise<void>;
  /** `pending` → a final status, once; null when the record is no longer pending. */
  settle(refundId: string, status: Exclude<TransferStatus, "pending">, failureCode: string | null, at: string): Promise<RefundTransferRecord | null>;
}
