import type { Store } from "@payrail/store";
import type { SignInChallengeRecord } from "../domain/merchant-user.entity.ts";
import type { SignInChallengesPort } from "../domain/ports/sign-in-challenges.port.ts";

/** Two-factor sign-in challenges (`sign_in_challenges`), keyed by the SHA-256 of their token. */
export class SignInChallengeRepository implements SignInChallengesPort {
  constructor(private readonly store: Store) {}

  private get challenges() {
    return this.store.collection<SignInChallengeRecord>("sign_in_challenges");
  }

  async ensureIndexes(): Promise<void> {
    // The hourly sweep removes expired challenges, oldest first.
    await this.challenges.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  insert(challenge: SignInChallengeRecord): Promise<void> {
    return this.challenges.insertOne(challenge);
  }

  findActive(hash: string, now: string): Promise<SignInChallengeRecord | null> {
    return this.challenges.findOne({ _id: hash, expiresAt: { $gt: now } });
  }

  spend(hash: string): Promise<boolean> {
    return this.challenges.deleteOne({ _id: hash });
  }

  purge(now: string, limit: number): Promise<number> {
    return this.challenges.deleteOldest("expiresAt", now, { limit });
  }
}
