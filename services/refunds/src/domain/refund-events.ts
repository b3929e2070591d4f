import type { DomainEvent, RefundStatus } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { toRefundRecord, type RefundDoc } from "./refund.entity.ts";

/** The catalogue's refund events (docs/api-notes.md, Refunds): one per status a refund can reach. */
export type RefundEventType = `refund.${"requested" | "approved" | "rejected" | "processing" | "completed" | "failed" | "over_returned"}`;

/** The event a refund reaching `status` publishes: `pending` is its creation, every other status its own name. */
export function refundEventType(status: RefundStatus): RefundEventType {
  return status === "pending" ? "refund.requested" : `refund.${status}`;
}

/**
 * The event of a change, built from the refund as it is AFTER the change (the document about
 * to be written), so its snapshot and version are what the write stores. `created_at` is the
 * change's time (the record's `updatedAt`).
 */
export function refundEvent(after: RefundDoc, livemode: boolean, type: RefundEventType = refundEventType(after.status)): DomainEvent {
  return {
    id: prefixedHexId("evt_"),
    type,
    created_at: after.updatedAt,
    aggregate: { type: "refund", id: after._id, version: after.version },
    livemode,
    merchant_id: after.merchantId,
    data: { object: toRefundRecord(after) },
  };
}
