import { DuplicateKeyError, type Store } from "@payrail/store";
import type { UserRecord } from "../domain/consumer.entity.ts";
import type { UsersPort } from "../domain/ports/users.port.ts";

export class UserRepository implements UsersPort {
  constructor(private readonly store: Store) {}

  private get users() {
    return this.store.collection<UserRecord>("users");
  }

  async ensureIndexes(): Promise<void> {
    await this.users.createIndex({ keys: { phone: 1 }, unique: true, name: "phone" });
  }

  async findOrCreate(candidate: UserRecord): Promise<UserRecord> {
    const existing = await this.users.findOne({ phone: candidate.phone });
    if (existing) return existing;
    try {
      await this.users.insertOne(candidate);
      return candidate;
    } catch (err) {
      // A concurrent first verification of this phone inserted first: theirs is the user.
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.users.findOne({ phone: candidate.phone });
      if (!winner) throw err;
      return winner;
    }
  }
}
