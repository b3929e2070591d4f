import type { TransferState, TransferStatus, TransferStatusEvent } from "../../domain/transfers/ports/transfer.port.ts";

/*
 * The simulator's own collections. It keeps its state in the Store (not in memory) so several
 * processes running the payments service see one simulated provider, as they would see Dwolla.
 */

export const SANDBOX_CUSTOMERS = "sandbox_transfer_customers";
export const SANDBOX_FUNDING_SOURCES = "sandbox_funding_sources";
export const SANDBOX_TRANSFERS = "sandbox_transfers";

/** References in Dwolla's style (a URL per resource), under a scheme that cannot be fetched. */
export const SANDBOX_URL = {
  customer: (id: string) => `sandbox://customers/${id}`,
  fundingSource: (id: string) => `sandbox://funding-sources/${id}`,
  transfer: (id: string) => `sandbox://transfers/${id}`,
  microDeposits: (id: string) => `sandbox://micro-deposits/${id}`,
};

/** The id of a sandbox reference of that kind, or undefined for any other string. */
export function sandboxId(url: string, kind: "customers" | "funding-sources"): string | undefined {
  return new RegExp(`^sandbox://${kind}/([0-9a-f-]{36})$`).exec(url)?.[1];
}

export interface SandboxCustomerRecord {
  _id: string;
  /** Unique: one customer per user, however many callers race. */
  userId: string;
  createdAt: string;
}

export interface SandboxFundingSourceRecord {
  _id: string;
  customerId: string;
  /** Unique: a repeated create answers the first funding source. */
  idempotencyKey: string;
  name: string;
  /** The processor token itself is a secret and is not kept; its hash tells repeats apart in logs. */
  processorTokenSha256: string;
  /** The bank account's fingerprint (routing and account number); null when unknown. */
  fingerprint?: string | null;
  createdAt: string;
}

export interface SandboxTransferRecord {
  _id: string;
  /**
   * Unique: the key, not a read-then-write, decides which of racing callers creates the
   * transfer. A key reused past the idempotency window makes a new transfer, as at Dwolla:
   * that one's key is suffixed with its creation time.
   */
  idempotencyKey: string;
  /** The key the caller sent (Dwolla's correlationId): what findTransfer searches. */
  correlationId?: string;
  sourceFundingSource: string;
  destinationFundingSource: string;
  amountCents: number;
  currency: string;
  /** Pairs rather than an object: metadata keys may hold characters field names cannot. */
  metadata: { key: string; value: string }[];
  status: TransferStatus;
  failureCode?: string;
  /** The simulation that made the status final, handed out again to a repeated simulate. */
  lastEvent?: TransferStatusEvent;
  createdAt: string;
  updatedAt: string;
}

export function toState(record: SandboxTransferRecord): TransferState {
  return { transferId: record._id, status: record.status, ...(record.failureCode ? { failureCode: record.failureCode } : {}) };
}
