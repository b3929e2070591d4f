/*
 * Its own file because both transfer.deps.ts and renewals/renewal.deps.ts extend it: kept in
 * either, the two deps files would import each other's types (a cycle the lint refuses).
 */

/**
 * Told after a transfer's record (a transaction or a refund payout's transfer id) was first
 * written, so notices that ran ahead of it are applied now (applyKeptNotices). Never throws.
 */
export interface TransferRecordedDeps {
  transferRecorded(requestId: string, transferId: string): Promise<void>;
}
