import type { Store } from "@payrail/store";
import type { DashboardSessionRecord } from "../domain/merchant-user.entity.ts";
import type { DashboardSessionsPort } from "../domain/ports/dashboard-sessions.port.ts";

/** Dashboard sessions (`dashboard_sessions`), keyed by the SHA-256 of the cookie's token. */
export class DashboardSessionRepository implements DashboardSessionsPort {
  constructor(private readonly store: Store) {}

  private get sessions() {
    return this.store.collection<DashboardSessionRecord>("dashboard_sessions");
  }

  async ensureIndexes(): Promise<void> {
    // The hourly sweep removes expired sessions, oldest first.
    await this.sessions.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  insert(session: DashboardSessionRecord): Promise<void> {
    return this.sessions.insertOne(session);
  }

  findActive(hash: string, now: string): Promise<DashboardSessionRecord | null> {
    return this.sessions.findOne({ _id: hash, revokedAt: null, expiresAt: { $gt: now } });
  }

  async revoke(hash: string, now: string): Promise<boolean> {
    return (await this.sessions.findOneAndUpdate({ _id: hash, revokedAt: null }, { $set: { revokedAt: now } })) !== null;
  }

  purge(now: string, limit: number): Promise<number> {
    return this.sessions.deleteOldest("expiresAt", now, { limit });
  }
}
