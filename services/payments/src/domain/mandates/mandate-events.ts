import type { DomainEvent } from "@payrail/contracts";
import { envelope } from "../shared/payment-events.ts";
import { toMandateView, type MandateRecord } from "./mandate.entity.ts";

/** mandate.created / mandate.revoked: the mandate as it is after the change (docs/events.md). */
export function mandateEvent(type: "mandate.created" | "mandate.revoked", after: MandateRecord, at: string, livemode: boolean): DomainEvent {
  return envelope(type, { type: "mandate", id: after._id, version: after.version }, after.merchantId, at, toMandateView(after), livemode);
}
