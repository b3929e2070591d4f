import type { DomainEvent } from "@payrail/contracts";
import type { PayoutDoc } from "../payout.entity.ts";

/** The merchants' payouts; every change is one conditional write, with its event when it has one. */
export interface PayoutsPort {
  /** Inserts an `open` payout; false when the day's payout exists already. */
  insert(doc: PayoutDoc): Promise<boolean>;
  find(id: string): Promise<PayoutDoc | null>;
  /**
   * Gives an `open` payout to the run holding fencing token `fence` (larger than any it had);
   * null when it is no longer open or a run with a token as large took it.
   */
  claim(id: string, fence: number): Promise<PayoutDoc | null>;
  /** `open` → `created` with its amount and payout.created, by the run holding `fence`; null when it was no longer open or no longer that run's. */
  create(id: string, fence: number, amountCents: number, at: string, event: (after: PayoutDoc) => DomainEvent, audit?: readonly DomainEvent[]): Promise<PayoutDoc | null>;
  /** Removes a payout still `open` (it gathered nothing to pay), by the run holding `fence`. */
  removeOpen(id: string, fence: number): Promise<void>;
  /** Records the provider's transfer id once. */
  recordTransfer(id: string, transferId: string, at: string): Promise<void>;
  /** `created` → `paid` or `failed` with its event, once; null when it was no longer `created`. */
  settle(
    id: string,
    stage: "paid" | "failed",
    failure: { code: string; reason: string } | null,
    at: string,
    event: (after: PayoutDoc) => DomainEvent,
  ): Promise<PayoutDoc | null>;
  /** The merchant's payouts past `open`, newest first, after `after`. */
  list(merchantId: string, limit: number, after?: Pick<PayoutDoc, "_id" | "createdAt">): Promise<PayoutDoc[]>;
}

/** The ledger's job leases: the payout pass, and each merchant's payout. */
export interface JobLeasesPort {
  take(job: string, now: string, until: string): Promise<string | null>;
  /** `take` with the lease's fencing token, a number that grows with each taking of the job. */
  takeFenced(job: string, now: string, until: string): Promise<{ leaseId: string; fence: number } | null>;
  release(job: string, leaseId: string): Promise<void>;
}

/** Payments moves a payout's money. */
export interface PayoutTransfersPort {
  createPayout(
    requestId: string,
    input: { payout_id: string; merchant_id: string; amount_cents: number; currency: string },
  ): Promise<{ status: "pending"; transfer_id: string } | { status: "failed"; failure_code: string; failure_reason: string }>;
}
