import type { RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./checkouts.port.ts";

/** What payments tells the refunds service, which owns refund records. */
export interface RefundsPort {
  /**
   * The refund's transfer reached a final status: the refund moves `processing` →
   * `completed` | `failed` (idempotent; a final refund never moves). Answers the refund record.
   */
  recordTransferStatus(
    meta: RequestMeta,
    input: { refundId: string; transferId: string; status: "completed" | "failed"; failureCode?: string },
  ): Promise<RefundRecord>;
}
