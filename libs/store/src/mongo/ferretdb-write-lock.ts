import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Collection as MongoCollection } from "mongodb";
import { StoreUnavailableError } from "../store.port.ts";
import { KeyedMutex } from "../shared/keyed-mutex.ts";
import { isDuplicateKey } from "./mongo-errors.ts";

interface LockDoc {
  _id: string;
  token: string;
  /** Epoch ms after which a crashed holder's lock may be taken over. */
  expiresAt: number;
  /** "lock", or "takeover" for the marker that lets one process take over an expired lock. */
  kind: "lock" | "takeover";
}

export interface WriteLockOptions {
  /**
   * How long a holder may keep a lock before others may take it over: the bound on how long
   * a crashed (killed) holder stalls writers of the same document. Default 3 s.
   */
  leaseMs?: number;
  /** How long to wait for a lock before giving up with StoreUnavailableError. Default 15 s. */
  waitMs?: number;
}

/**
 * A conditional write's way out of a wait: a writer that found its document's lock taken (by
 * this process or another) reads whether the document still matches its filter, once, before it
 * waits on. A write that matches nothing changes nothing and answers `noMatch` at once, as it
 * would have after the wait: that read is its moment, and the document did not match then. So
 * of 50 racing `{status: "approved"}` moves, the 49 losers read instead of each taking and
 * giving back the lock in turn behind the winner.
 */
export interface ContendedWrite<T> {
  stillMatches: () => Promise<boolean>;
  noMatch: T;
}

/** Time kept between the end of a section's server-side time limit and the lease's expiry. */
const LEASE_MARGIN_MS = 250;
/** Takeover markers older than this are deleted (no process can still be acting on them). */
const MARKER_TTL_MS = 60_000;

/**
 * Makes conditional writes atomic on FerretDB v1, whose findAndModify/delete are not, on the
 * SQLite and on the PostgreSQL backend alike: it reads the matching document, then writes it
 * back by `_id` without re-checking the filter (handler/msg_findandmodify.go, the backends'
 * UpdateAll), so 50 racing `{status: "open"}` updates can all "win". What FerretDB does make
 * atomic is an insert against a unique `_id`, so a lock is a document in `store_locks` that
 * one writer at a time manages to insert: cross-process, with a lease so a crashed holder
 * cannot block forever. An in-process mutex in front keeps one process from spinning on its
 * own lock.
 *
 * Keys are per document (`<collection>/<_id>`, see ferretdb-writes.ts), so writers of
 * different documents never wait for each other and a crashed holder stalls only writers of
 * its document, for at most `leaseMs`. The section receives the milliseconds left on the lease
 * (less a margin) and must pass them to the server as `maxTimeMS`: FerretDB then cancels a
 * write that would outlive the lease instead of letting it run while another process takes
 * the lock over.
 *
 * Limits, acceptable for a test/development stand-in: lease expiry trusts the processes'
 * clocks; FerretDB's own delete is read-then-delete-by-`_id`, so a holder that outlives its
 * lease by a whole takeover could still remove its successor's lock. Real MongoDB never takes
 * this path.
 */
export class FerretDbWriteLock {
  private readonly local = new KeyedMutex();
  readonly leaseMs: number;
  readonly waitMs: number;

  constructor(
    private readonly locks: MongoCollection<LockDoc>,
    options: WriteLockOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 3_000;
    this.waitMs = options.waitMs ?? 15_000;
  }

  /** Runs `section(maxTimeMS)` holding the lock on `key`; with `contended`, see ContendedWrite. */
  run<T>(key: string, section: (maxTimeMS: number) => Promise<T>, contended?: ContendedWrite<T>): Promise<T> {
    const queued = this.local.busy(key);
    return this.local.run(key, async () => {
      let asked = false;
      const matchesNothing = async () => {
        if (!contended || asked) return false;
        asked = true;
        return !(await contended.stillMatches());
      };
      if (queued && (await matchesNothing())) return contended!.noMatch;
      const deadline = Date.now() + this.waitMs;
      for (;;) {
        const token = randomUUID();
        const expiresAt = await this.acquire(key, token, deadline, matchesNothing);
        if (expiresAt === null) return contended!.noMatch;
        const left = expiresAt - Date.now() - LEASE_MARGIN_MS;
        if (left <= 0) {
          // Taking the lock used up its lease (on a loaded machine one insert can take seconds):
          // writing now could overlap a writer that took the expired lock over, so the lock is
          // given back and taken again, within the same wait as any other.
          await this.locks.deleteOne({ _id: key, token }).catch(() => undefined);
          if (Date.now() > deadline) throw new StoreUnavailableError(`the write lock on ${key} kept expiring before the write could start`);
          continue;
        }
        try {
          return await section(left);
        } finally {
          await this.locks.deleteOne({ _id: key, token }).catch(() => undefined); // the lease covers a failed release
        }
      }
    });
  }

  /** Takes the lock; returns when its lease ends, or null when `matchesNothing` says the write has nothing to do. */
  private async acquire(key: string, token: string, deadline: number, matchesNothing: () => Promise<boolean>): Promise<number | null> {
    for (let attempt = 0; ; attempt++) {
      const expiresAt = Date.now() + this.leaseMs;
      try {
        await this.locks.insertOne({ _id: key, token, expiresAt, kind: "lock" });
        return expiresAt;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      if (await matchesNothing()) return null;
      const held = await this.locks.findOne({ _id: key });
      if (held && held.expiresAt < Date.now()) {
        await this.takeOver(key, held.token);
        continue;
      }
      if (Date.now() > deadline) throw new StoreUnavailableError(`timed out waiting for the write lock on ${key}`);
      await sleep(Math.min(2 ** attempt, 50) + Math.random() * 5);
    }
  }

  /**
   * Removes an expired lock. Several waiters may see it expired at once; only the one that
   * inserts the marker for that holder's token deletes it, so no waiter can delete a lock a
   * faster waiter has just taken. A marker has a lease too, in case its taker dies.
   */
  private async takeOver(key: string, expiredToken: string): Promise<void> {
    const markerId = `${key}~${expiredToken}`;
    const taker = randomUUID();
    try {
      await this.locks.insertOne({ _id: markerId, token: taker, expiresAt: Date.now() + this.leaseMs, kind: "takeover" });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Another waiter is taking it over, unless it died doing so.
      const marker = await this.locks.findOne({ _id: markerId });
      if (marker && marker.expiresAt < Date.now()) await this.locks.deleteOne({ _id: markerId, token: marker.token });
      return;
    }
    await this.locks.deleteOne({ _id: key, token: expiredToken });
    await this.locks.deleteMany({ kind: "takeover", expiresAt: { $lt: Date.now() - MARKER_TTL_MS } }).catch(() => undefined);
  }
}
