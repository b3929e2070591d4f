import { insertIfAbsent, type Store } from "@payrail/store";
import type { WebhookEventsPort } from "../domain/transfers/ports/webhook-events.port.ts";

/** Provider event ids already processed (`_id` = the provider's event id). */
export class WebhookEventRepository implements WebhookEventsPort {
  constructor(private readonly store: Store) {}

  private get events() {
    return this.store.collection<{ _id: string; processedAt: string }>("transfer_webhook_events");
  }

  async seen(eventId: string): Promise<boolean> {
    return (await this.events.findOne({ _id: eventId })) !== null;
  }

  remember(eventId: string, at: string): Promise<boolean> {
    return insertIfAbsent(this.events, { _id: eventId, processedAt: at });
  }
}
