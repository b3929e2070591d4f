import type { DomainEvent } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { toPayout, type PayoutDoc } from "./payout.entity.ts";

/** payout.created / .paid / .failed: the payout as the API shows it after the change, in the write that makes it. */
export function payoutEvent(after: PayoutDoc, livemode: boolean): DomainEvent {
  const type = after.stage === "paid" ? "payout.paid" : after.stage === "failed" ? "payout.failed" : "payout.created";
  return {
    id: prefixedHexId("evt_"),
    type,
    created_at: after.updatedAt,
    aggregate: { type: "payout", id: after._id, version: after.version },
    livemode,
    merchant_id: after.merchantId,
    data: { object: toPayout(after) },
  };
}
