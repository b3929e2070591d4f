import { insertIfAbsent, type Store } from "@payrail/store";
import type { OptOutsPort } from "../domain/ports/opt-outs.port.ts";
import type { OptOutKey } from "../domain/unsubscribe-token.ts";

interface OptOutDoc {
  /** `merchant:user:channel`: one opt-out per consumer, merchant and channel. */
  _id: string;
  merchantId: string;
  userId: string;
  channel: string;
  createdAt: string;
}

const idOf = (key: OptOutKey) => `${key.merchantId}:${key.userId}:${key.channel}`;

/** Opt-outs of optional notices, read and written by `_id` only (no index to declare). */
export class OptOutRepository implements OptOutsPort {
  constructor(private readonly store: Store) {}

  private get optOuts() {
    return this.store.collection<OptOutDoc>("notice_opt_outs");
  }

  add(key: OptOutKey, at: string): Promise<boolean> {
    return insertIfAbsent(this.optOuts, { _id: idOf(key), merchantId: key.merchantId, userId: key.userId, channel: key.channel, createdAt: at });
  }

  async has(key: OptOutKey): Promise<boolean> {
    return (await this.optOuts.findOne({ _id: idOf(key) })) !== null;
  }
}
