import type { DomainEvent, WebhookEvent } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";

/**
 * One event as the webhooks service keeps it for its merchant. The event object is stored as
 * JSON text: a checkout snapshot carries the merchant's body, whose nested arrays FerretDB
 * cannot store (the same reason checkout's outbox keeps JSON text).
 */
export interface EventDoc {
  _id: string;
  merchantId: string;
  type: string;
  /** The type's first word (`refund` of `refund.approved`): what `refund.*` filters on. */
  group: string;
  createdAt: string;
  livemode: boolean;
  /** The merchant-facing event object (`WebhookEvent`), JSON. */
  body: string;
  /**
   * What the event is about: its object's id, transaction_uuid and checkout id (when a `chk_`
   * one), so a checkout's page can list the events of the checkout and its transactions and
   * refunds (`about`). Absent on events stored before it was kept.
   */
  subjects?: string[];
  /** Before this, a redeliver request is refused (429); unset until the first one. */
  redeliverableAfter?: string | null;
}

export const groupOf = (type: string) => type.slice(0, type.indexOf("."));

/** The event object merchants see: id, type, created_at, livemode, data.object; never merchant_id or aggregate. */
export function toEventDoc(event: Pick<DomainEvent, "id" | "type" | "created_at" | "livemode" | "merchant_id" | "data">): EventDoc {
  const object = (event.data as { object?: unknown } | null)?.object ?? {};
  const merchantEvent: WebhookEvent = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    livemode: event.livemode ?? false,
    data: { object: object as Record<string, unknown> },
  };
  return {
    _id: event.id,
    merchantId: event.merchant_id,
    subjects: subjectsOf(object as Record<string, unknown>),
    type: event.type,
    group: groupOf(event.type),
    createdAt: event.created_at,
    livemode: merchantEvent.livemode,
    body: JSON.stringify(merchantEvent),
  };
}

/**
 * The ids an event is filed under for `about`: its object's own, and the checkout and
 * transaction it names. Transaction and refund records name their checkout by `checkout`
 * (`chk_…`; their `checkout_id` is the checkout's number), checkout-side objects by `checkout_id`.
 */
function subjectsOf(object: Record<string, unknown>): string[] {
  const ids = [object.id, object.transaction_uuid, object.checkout_id, object.checkout].filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 64);
  return [...new Set(ids)];
}

export const toWebhookEvent = (doc: EventDoc): WebhookEvent => JSON.parse(doc.body) as WebhookEvent;

/** Whether an endpoint's `enabled_events` (`*`, types, `group.*`) take this type. */
export function takesType(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.some((p) => p === "*" || p === type || (p.endsWith(".*") && p.slice(0, -2) === groupOf(type)));
}

/** Events are kept this long (docs/api-notes.md, Events and webhooks): older ones are invisible, then purged. */
export const EVENT_RETENTION_MS = 30 * 24 * 3_600_000;

/** An event this service writes itself (test events, `webhook_endpoint.disabled`), with a fresh id. */
export function ownEventDoc(merchantId: string, type: string, livemode: boolean, object: Record<string, unknown>, at: string): EventDoc {
  return toEventDoc({ id: prefixedHexId("evt_"), type, created_at: at, livemode, merchant_id: merchantId, data: { object } });
}
