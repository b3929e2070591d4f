import type { TransferStatus } from "./ports/transfer.port.ts";

/**
 * What payments keeps of a transfer it sends from a merchant's funding source (a refund payout, a
 * merchant payout): `_id` is also the provider's idempotency key, and the record is written before
 * the provider is asked, so a call that died after the provider answered is finished by the next
 * one with the same key.
 */
export interface ProviderTransferRecord {
  _id: string;
  amountCents: number;
  currency: string;
  /** The provider's transfer id; null until it answered, or when it refused. */
  transferId: string | null;
  status: TransferStatus;
  failureCode: string | null;
  failureReason: string | null;
  /** When the reconciler last found no transfer at the provider for this record. */
  reconciledAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** A record written before its provider call: pending, no transfer yet, created and updated `at`. */
export function pendingTransfer<R extends ProviderTransferRecord>(fields: Omit<R, "transferId" | "status" | "failureCode" | "failureReason" | "createdAt" | "updatedAt">, at: string): R {
  return { ...fields, transferId: null, status: "pending", failureCode: null, failureReason: null, createdAt: at, updatedAt: at } as R;
}
