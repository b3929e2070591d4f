import type { Store } from "@payrail/store";
import type { AuthTokenRecord } from "../domain/consumer.entity.ts";
import type { AuthTokensPort } from "../domain/ports/auth-tokens.port.ts";

/** Auth tokens keyed by the SHA-256 of the token: the token itself is never stored. */
export class AuthTokenRepository implements AuthTokensPort {
  constructor(private readonly store: Store) {}

  private get tokens() {
    return this.store.collection<AuthTokenRecord>("auth_tokens");
  }

  async ensureIndexes(): Promise<void> {
    await this.tokens.createIndex({ keys: { tokenId: 1 }, unique: true, name: "token_id" });
    await this.tokens.createIndex({ keys: { userId: 1 }, name: "user" });
  }

  insert(record: AuthTokenRecord): Promise<void> {
    return this.tokens.insertOne(record);
  }

  findActive(hash: string, now: string): Promise<AuthTokenRecord | null> {
    return this.tokens.findOne({ _id: hash, revokedAt: null, expiresAt: { $gt: now } });
  }

  async revoke(tokenId: string, userId: string, now: string): Promise<boolean> {
    return (await this.tokens.findOneAndUpdate({ tokenId, userId, revokedAt: null }, { $set: { revokedAt: now } })) !== null;
  }
}
