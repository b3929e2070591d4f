import { z } from "zod";
import type { TransferState, TransferStatusEvent } from "../../domain/transfers/ports/transfer.port.ts";

/**
 * A Dwolla webhook about a transfer, in neutral terms. The topic says what happened, but the
 * status to record is read back from the transfer itself (`getTransfer`): Dwolla does not
 * promise delivery order, and only the transfer carries the ACH return code.
 */
export interface TransferWebhookEvent {
  /** Dwolla's event id: the key for idempotent processing (events may arrive twice). */
  eventId: string;
  /** e.g. `customer_transfer_completed`, `customer_bank_transfer_failed`, `transfer_completed`. */
  topic: string;
  /** The transfer id the event is about (for `*_bank_transfer_*` topics, the bank leg's id). */
  resourceId: string;
  /** ISO 8601 UTC, as Dwolla sent it. */
  timestamp: string;
}

const DwollaEvent = z.object({
  id: z.string().min(1).max(64),
  topic: z.string().min(1).max(100),
  resourceId: z.string().optional(),
  timestamp: z.string().optional(),
  created: z.string().optional(),
  _links: z.object({ resource: z.object({ href: z.string() }).optional() }).passthrough().optional(),
});

const TRANSFER_HREF = /\/transfers\/([0-9A-Za-z-]{1,64})\/?$/;

/**
 * Reads a (signature-checked) Dwolla webhook body, parsed JSON. Answers null for anything that
 * is not about a transfer (customer or funding-source events) or is malformed: the caller
 * acknowledges those and does nothing.
 */
export function parseWebhookEvent(body: unknown): TransferWebhookEvent | null {
  const parsed = DwollaEvent.safeParse(body);
  if (!parsed.success || !parsed.data.topic.includes("transfer")) return null;
  const e = parsed.data;
  const fromLink = e._links?.resource?.href ? TRANSFER_HREF.exec(e._links.resource.href)?.[1] : undefined;
  const resourceId = fromLink ?? (e.resourceId && /^[0-9A-Za-z-]{1,64}$/.test(e.resourceId) ? e.resourceId : undefined);
  // A link to something other than a transfer (a mass payment, say) is not ours to process.
  if (!resourceId || (e._links?.resource?.href && !fromLink)) return null;
  const timestamp = e.timestamp ?? e.created;
  const occurred = timestamp && !Number.isNaN(Date.parse(timestamp)) ? new Date(timestamp).toISOString() : new Date().toISOString();
  // Lower case, as the adapter reports transfer ids, so the lookup by id matches.
  return { eventId: e.id, topic: e.topic, resourceId: resourceId.toLowerCase(), timestamp: occurred };
}

/** The neutral status event for a webhook, once its transfer was read back. */
export function toStatusEvent(event: TransferWebhookEvent, state: TransferState): TransferStatusEvent {
  return {
    eventId: event.eventId,
    transferId: state.transferId,
    status: state.status,
    ...(state.failureCode ? { failureCode: state.failureCode } : {}),
    occurredAt: event.timestamp,
  };
}
