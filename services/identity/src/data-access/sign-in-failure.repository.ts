import { DuplicateKeyError, type Store } from "@payrail/store";
import type { SignInFailureRecord } from "../domain/merchant-user.entity.ts";
import type { AttemptState, SignInFailuresPort } from "../domain/ports/sign-in-failures.port.ts";

/** Sign-in attempts per account and per client address (`sign_in_failures`). */
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

  async write(key: string, expected: AttemptState | null, next: Omit<SignInFailureRecord, "_id">): Promise<boolean> {
    if (expected) return (await this.failures.findOneAndUpdate({ _id: key, ...expected }, { $set: next })) !== null;
    try {
      await this.failures.insertOne({ _id: key, ...next });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  async giveBack(key: string, written: AttemptState, previous: SignInFailureRecord | null): Promise<void> {
    const unchanged = { _id: key, ...written };
    if (previous === null ? await this.failures.deleteOne(unchanged) : await this.failures.findOneAndUpdate(unchanged, { $set: stateOf(previous) })) return;
    // Counted on since: one attempt less in the same window (a delay it started stays, on the safe side).
    await this.failures.findOneAndUpdate({ _id: key, windowStart: written.windowStart, count: { $gt: 0 } }, { $inc: { count: -1 } });
  }

  async clear(key: string): Promise<void> {
    await this.failures.deleteOne({ _id: key });
  }

  purge(now: string, limit: number): Promise<number> {
    return this.failures.deleteOldest("expiresAt", now, { limit });
  }
}

function stateOf(record: SignInFailureRecord): Omit<SignInFailureRecord, "_id"> {
  return { count: record.count, windowStart: record.windowStart, blockedUntil: record.blockedUntil, expiresAt: record.expiresAt };
}
