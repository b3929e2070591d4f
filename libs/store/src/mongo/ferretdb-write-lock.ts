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
}

export interface WriteLockOptions {
  /** How long a holder may keep the lock before others may take it over. */
  leaseMs?: number;
  /** How long to wait for the lock before giving up with StoreUnavailableError. */
  waitMs?: number;
}

/**
 * Makes conditional writes atomic on FerretDB v1, whose findAndModify/delete are not: it
 * reads the matching document, then writes it back by `_id` without re-checking the filter
 * (handler/msg_findandmodify.go, backends/sqlite/collection.go UpdateAll), so 50 racing
 * `{status: "open"}` updates can all "win". What FerretDB does make atomic is an insert
 * against a unique `_id`, so the lock is a document in `store_locks` that one writer at a
 * time manages to insert: cross-process, with a lease so a crashed holder cannot block
 * forever. An in-process mutex in front keeps one process from spinning on its own lock.
 *
 * Limits, acceptable for a test/development stand-in: writes to one collection are
 * serialised; lease expiry trusts the processes' clocks. Real MongoDB never takes this path.
 */
export class FerretDbWriteLock {
  private readonly local = new KeyedMutex();
  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly locks: MongoCollection<LockDoc>,
    options: WriteLockOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.waitMs = options.waitMs ?? 15_000;
  }

  run<T>(key: string, section: () => Promise<T>): Promise<T> {
    return this.local.run(key, async () => {
      const token = randomUUID();
      await this.acquire(key, token);
      try {
        return await section();
      } finally {
        await this.locks.deleteOne({ _id: key, token }).catch(() => undefined); // the lease covers a failed release
      }
    });
  }

  private async acquire(key: string, token: string): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.locks.insertOne({ _id: key, token, expiresAt: Date.now() + this.leaseMs });
        return;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const held = await this.locks.findOne({ _id: key });
      if (held && held.expiresAt < Date.now()) {
        await this.locks.deleteOne({ _id: key, token: held.token });
        continue;
      }
      if (Date.now() > deadline) throw new StoreUnavailableError(`timed out waiting for the write lock on ${key}`);
      await sleep(Math.min(2 ** attempt, 50) + Math.random() * 5);
    }
  }
}
