import type { RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./checkouts.port.ts";

/** A refund payout's final status, as payments reports it. */
export interface PayoutOutcome {
  refundId: string;
  attempt: number;
  transferId: string;
  status: "completed" | "failed";
  failureCode?: string;
  failureReason?: string;
}

/** What payments tells the refunds service, which owns refund records. */
export interface RefundsPort {
  /**
   * The refund's payout reached a final status: the refund moves `processing` → `completed` |
   * `failed` (idempotent; a final refund, or one on another attempt, never moves). Answers the
   * refund record.
   */
  recordTransferStatus(meta: RequestMeta, outcome: PayoutOutcome): Promise<RefundRecord>;
}
