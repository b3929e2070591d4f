import type { Store } from "@payrail/store";
import type { LinkTokensPort } from "../domain/ports/link-tokens.port.ts";
import type { LinkTokenRecord } from "../domain/checkout.entity.ts";

/** Merchant link tokens, keyed by the SHA-256 of the token: the token itself is never stored. */
export class LinkTokenRepository implements LinkTokensPort {
  constructor(private readonly store: Store) {}

  private get tokens() {
    return this.store.collection<LinkTokenRecord>("link_tokens");
  }

  async ensureIndexes(): Promise<void> {
    await this.tokens.createIndex({ keys: { checkoutId: 1 }, name: "checkout" });
  }

  insert(record: LinkTokenRecord): Promise<void> {
    return this.tokens.insertOne(record);
  }

  findByHash(hash: string): Promise<LinkTokenRecord | null> {
    return this.tokens.findOne({ _id: hash });
  }
}
