/** A provider notice about a transfer payments had no record of when it arrived. */
export interface KeptNotice {
  /** The provider's event id (the key that makes applying it idempotent). */
  eventId: string;
  transferId: string;
  receivedAt: string;
}

/** Notices kept until their transfer's record exists (docs/api-notes.md, Convergence with the provider: nothing the provider did is lost). */
export interface TransferNoticesPort {
  /** Keeps the notice; keeping the same event id again changes nothing. */
  keep(notice: KeptNotice): Promise<void>;
  /** The notices kept for a transfer, oldest first. */
  forTransfer(transferId: string): Promise<KeptNotice[]>;
  /** The notice was applied: it is no longer kept. */
  applied(eventId: string): Promise<void>;
}
