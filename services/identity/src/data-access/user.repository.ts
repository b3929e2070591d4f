import { insertOrGet, type Store } from "@payrail/store";
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

  findByPhone(phone: string): Promise<UserRecord | null> {
    return this.users.findOne({ phone });
  }

  findById(userId: string): Promise<UserRecord | null> {
    return this.users.findOne({ _id: userId });
  }

  async findOrCreate(candidate: UserRecord): Promise<UserRecord> {
    const existing = await this.users.findOne({ phone: candidate.phone });
    if (existing) return existing;
    // A concurrent first verification of this phone may insert first: then theirs is the user.
    return (await insertOrGet(this.users, candidate, { phone: candidate.phone })).doc;
  }
}
