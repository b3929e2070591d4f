import type { UserRecord } from "../consumer.entity.ts";

/** Storage of consumers. */
export interface UsersPort {
  /**
   * The user of this phone, created as `candidate` when there is none. Concurrent calls for
   * one phone all get the same user (a unique index on the phone decides).
   */
  findOrCreate(candidate: UserRecord): Promise<UserRecord>;
  /** The user of this phone (E.164), or null when it never verified. */
  findByPhone(phone: string): Promise<UserRecord | null>;
  /** The user with this id, or null. */
  findById(userId: string): Promise<UserRecord | null>;
}
