import type { AuthTokenRecord } from "../consumer.entity.ts";

/** Storage of consumer auth tokens (by hash). */
export interface AuthTokensPort {
  insert(record: AuthTokenRecord): Promise<void>;
  /** The token with this hash if it is neither revoked nor expired at `now`. */
  findActive(hash: string, now: string): Promise<AuthTokenRecord | null>;
  /** Revokes the user's token with this id; false when it was already revoked or is unknown. */
  revoke(tokenId: string, userId: string, now: string): Promise<boolean>;
}
