import type { DomainEvent, EventType } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";

/** A fresh aggregate id and its snapshot, for each kind of aggregate in the catalogue. */
const AGGREGATES = {
  checkout: (id = prefixedHexId("chk_")) => ({ id, object: { id, status: "open" } }),
  transaction: (id = prefixedHexId("sc-")) => ({ id, object: { transaction_uuid: id, transaction_status: "pending" } }),
  subscription: (id = prefixedHexId("sub_")) => ({ id, object: { id } }),
  refund: (id = prefixedHexId("rfd_")) => ({ id, object: { id, transaction_uuid: prefixedHexId("sc-"), status: "pending" } }),
};

/** A valid event of `type` with a new id, about a new aggregate. */
export function sampleEvent(type: EventType = "refund.requested"): DomainEvent {
  const aggregateType = type.slice(0, type.indexOf(".")) as keyof typeof AGGREGATES;
  const { id, object } = AGGREGATES[aggregateType]();
  return {
    id: prefixedHexId("evt_"),
    type,
    created_at: new Date().toISOString(),
    aggregate: { type: aggregateType, id, version: 1 },
    livemode: false,
    merchant_id: prefixedHexId("mer_"),
    data: { object },
  };
}

/** `count` sample events of one type. */
export function sampleEvents(count: number, type: EventType = "refund.requested"): DomainEvent[] {
  return Array.from({ length: count }, () => sampleEvent(type));
}
