import type { DashboardSessionRecord } from "../merchant-user.entity.ts";

/** Storage of dashboard sessions (by the hash of their token). */
export interface DashboardSessionsPort {
  insert(session: DashboardSessionRecord): Promise<void>;
  /** The session with this hash if neither revoked nor expired at `now`. */
  findActive(hash: string, now: string): Promise<DashboardSessionRecord | null>;
  revoke(hash: string, now: string): Promise<boolean>;
  /** Deletes up to `limit` sessions that expired before `now`; answers how many. */
  purge(now: string, limit: number): Promise<number>;
}
