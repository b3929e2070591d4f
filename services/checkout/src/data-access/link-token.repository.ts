import type { DomainEvent } from "@payrail/contracts";
import { insertWithEvents, type Store } from "@payrail/store";
import type { LinkTokensPort } from "../domain/ports/link-tokens.port.ts";
import type { LinkTokenRecord } from "../domain/checkout.entity.ts";
import { toStoredEvent } from "./checkout-outbox.ts";

/** The collection of link tokens; their documents carry the audit entries of their generation (the outbox, stored as the checkouts' is: the relay reads both alike). */
export const LINK_TOKENS_COLLECTION = "link_tokens";

/** Merchant link tokens, keyed by the SHA-256 of the token: the token itself is never stored. */
export class LinkTokenRepository implements LinkTokensPort {
  constructor(private readonly store: Store) {}

  private get tokens() {
    return this.store.collection<LinkTokenRecord>(LINK_TOKENS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.tokens.createIndex({ keys: { checkoutId: 1 }, name: "checkout" });
  }

  insert(record: LinkTokenRecord, audit: readonly DomainEvent[] = []): Promise<void> {
    return this.tokens.insertOne(insertWithEvents(record, audit.map(toStoredEvent)));
  }

  findByHash(hash: string): Promise<LinkTokenRecord | null> {
    return this.tokens.findOne({ _id: hash });
  }
}
