import type { Store } from "@payrail/store";
import type { SignInFailureRecord } from "../domain/merchant-user.entity.ts";
import type { SignInFailuresPort } from "../domain/ports/sign-in-failures.port.ts";

/** Failed dashboard sign-ins per client address and email (`sign_in_failures`). */
export class SignInFailureRepository implements SignInFailuresPort {
  constructor(private readonly store: Store) {}

  private get failures() {
    return this.store.collection<SignInFailureRecord>("sign_in_failures");
  }

  async ensureIndexes(): Promise<void> {
    await this.failures.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  find(key: string): Promise<SignInFailureRecord | null> {
    return this.failures.findOne({ _id: key });
  }

  async count(key: string, now: string, windowFloor: string, expiresAt: string): Promise<SignInFailureRecord> {
    const counted = await this.failures.findOneAndUpdate(
      { _id: key, windowStart: { $gt: windowFloor } },
      { $inc: { count: 1 }, $set: { expiresAt } },
    );
    if (counted) return counted;
    // No window open: this failure starts one (a racing first failure may overwrite another's 1; harmless).
    const started = await this.failures.findOneAndUpdate(
      { _id: key },
      { $set: { count: 1, windowStart: now, lockedUntil: null, expiresAt } },
      { upsert: true },
    );
    return started as SignInFailureRecord;
  }

  async lock(key: string, until: string): Promise<void> {
    await this.failures.findOneAndUpdate({ _id: key, lockedUntil: null }, { $set: { lockedUntil: until, expiresAt: until } });
  }

  async clear(key: string): Promise<void> {
    await this.failures.deleteOne({ _id: key });
  }

  purge(now: string, limit: number): Promise<number> {
    return this.failures.deleteOldest("expiresAt", now, { limit });
  }
}
