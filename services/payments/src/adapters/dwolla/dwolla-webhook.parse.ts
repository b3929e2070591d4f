import { parseWebhookEvent } from "./dwolla-webhook.transformers.ts";

/** The ids the status path needs from a Dwolla webhook body; null when it is not about a transfer. */
export function parseDwollaTransferWebhook(body: unknown): { eventId: string; transferId: string } | null {
  const event = parseWebhookEvent(body);
  return event ? { eventId: event.eventId, transferId: event.resourceId } : null;
}
