import { insertIfAbsent, type Store } from "@payrail/store";
import type { ConsumersPort } from "../domain/ports/consumers.port.ts";

interface ConsumerDoc {
  /** The checkout (`chk_…`). */
  _id: string;
  userId: string;
}

/** Each checkout's consumer, as payments' events named them (`_id` only: no index to declare). */
export class ConsumerRepository implements ConsumersPort {
  constructor(private readonly store: Store) {}

  private get consumers() {
    return this.store.collection<ConsumerDoc>("notice_consumers");
  }

  async remember(checkoutId: string, userId: string): Promise<void> {
    // Every event after a checkout's first finds its consumer remembered: read first, rather than
    // send an insert the store would refuse (a refused write, and its error, cost more than a read).
    if (await this.consumers.findOne({ _id: checkoutId })) return;
    await insertIfAbsent(this.consumers, { _id: checkoutId, userId });
  }

  async userOf(checkoutId: string): Promise<string | null> {
    return (await this.consumers.findOne({ _id: checkoutId }))?.userId ?? null;
  }
}
