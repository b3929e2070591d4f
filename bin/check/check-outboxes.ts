import { OUTBOX_INDEX } from "@payrail/store";
import type { CheckContext, Divergence } from "./divergence.ts";

/** The collections whose documents carry events to publish (each service's outbox). */
export const OUTBOX_COLLECTIONS = ["checkouts", "transactions", "payment_methods", "transfer_attempts", "return_rate_warnings", "mandates", "refunds", "payout_transfers"] as const;

type OutboxDoc = { _id: string; outboxPending?: boolean; _outbox?: Record<string, unknown> };

/** An event still in its outbox a minute after it happened: its relay is not publishing. */
export async function checkOutboxes(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const before = new Date(ctx.now.getTime() - 60_000).toISOString();
  for (const name of OUTBOX_COLLECTIONS) {
    const collection = ctx.store.collection<OutboxDoc>(name);
    // The relay's own index serves this (declared again here: a no-op where a relay ran); few documents ever match.
    await collection.createIndex(OUTBOX_INDEX);
    const pending = await collection.find({ outboxPending: true }, { limit: 1_000 });
    for (const doc of pending) {
      for (const [eventId, stored] of Object.entries(doc._outbox ?? {})) {
        const event = (typeof stored === "string" ? JSON.parse(stored) : stored) as { type?: string; created_at?: string };
        if (event.created_at && event.created_at < before) {
          report({ kind: "event_not_published", id: eventId, detail: `${event.type ?? "an event"} of ${name}/${doc._id} has waited in its outbox since ${event.created_at}` });
        }
      }
    }
  }
}
