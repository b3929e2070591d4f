import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { setImmediate as turn, setTimeout as sleep } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createLogger, silentLogger } from "@payrail/runtime";
import { createEmbeddedStore } from "../src/index.ts";
import { WalCheckpointer, type WriteGate } from "../src/embedded/wal-checkpointer.ts";
import { until } from "../../../test/support/until.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("payrail-wal-");

/** A WAL-mode database in a fresh folder, set up as the embedded store sets up its own. */
async function walDatabase(): Promise<{ file: string; db: Database.Database }> {
  const file = join(await tempDir(), "db.sqlite");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec("CREATE TABLE t (n INTEGER PRIMARY KEY, blob BLOB NOT NULL)");
  return { file, db };
}

/** A write queue's gate as the store's is: while held, the writer below commits nothing. */
function gate(): WriteGate & { held: boolean; holds: number } {
  return {
    held: false,
    holds: 0,
    holdWrites() {
      this.held = true;
      this.holds += 1;
    },
    releaseWrites() {
      this.held = false;
    },
  };
}

/** What the tests look at inside a checkpointer: its worker, where it is, and its idle check. */
const internals = (checkpointer: WalCheckpointer) => checkpointer as unknown as { worker: Worker | undefined; state: string; restIfIdle(): void };

/** This process's threads (Linux). */
const threads = () => readdirSync("/proc/self/task").length;

const autocheckpoint = (db: Database.Database) => db.pragma("wal_autocheckpoint", { simple: true }) as number;

/** The WAL header's checkpoint sequence number: it goes up each time the WAL is rewound. */
function walRewinds(file: string): number {
  const fd = openSync(`${file}-wal`, "r");
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

/** Commits `rows` rows of 4 KiB (about one WAL frame each) in one transaction. */
function commitRows(db: Database.Database, from: number, rows: number): void {
  const insert = db.prepare("INSERT INTO t (n, blob) VALUES (?, randomblob(4000))");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(from + i);
  })();
}

describe("the WAL checkpoint worker", () => {
  it("keeps the WAL bounded under steady writes while the serving connection never checkpoints", async () => {
    const { file, db } = await walDatabase();
    const writes = gate();
    const checkpointer = new WalCheckpointer(file, db, writes, silentLogger(), { intervalMs: 5, restartFrames: 128 });
    await until("the worker to take the checkpoints over", () => autocheckpoint(db) === 0);

    // ~24 MiB through the WAL in commits of ~80 KiB, the event loop free between them as in
    // the store's group commit. Without a checkpointer the WAL file would hold all of it.
    const rewoundBefore = walRewinds(file);
    const frameBytes = 4096 + 24;
    let largestWal = 0;
    let written = 0;
    // The writer runs ahead of the worker by at most this many frames since the last restart
    // checkpoint it saw (the worker holds the writes for each one's last copy; the next commit
    // then rewinds the WAL), and then waits for the next: on a loaded machine the worker's thread
    // may get no core for a while, and a writer that raced on would measure the scheduler.
    const aheadFrames = 4 * 128;
    let holdsSeen = writes.holds;
    let sinceHold = 0;
    for (let n = 0; written < 6_000; n++) {
      if (writes.held) {
        // The gate has no release event: the writer polls it, as the store's queue waits its turn.
        await sleep(1);
        continue;
      }
      commitRows(db, written, 20);
      written += 20;
      sinceHold += 20;
      largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
      if (writes.holds !== holdsSeen) [holdsSeen, sinceHold] = [writes.holds, 0];
      if (sinceHold >= aheadFrames) {
        await until("the worker's next restart checkpoint", () => writes.holds !== holdsSeen && !writes.held, 60_000);
        [holdsSeen, sinceHold] = [writes.holds, 0];
      }
      // The pace of a busy store, on purpose: the worker thread copies while the writes go on.
      await (n % 4 === 0 ? sleep(1) : turn());
    }
    expect(walRewinds(file) - rewoundBefore).toBeGreaterThanOrEqual(3);
    expect(writes.holds).toBeGreaterThanOrEqual(3);
    await until("the last hold to be released", () => !writes.held);
    expect(largestWal).toBeLessThan((written * frameBytes) / 3);
    expect(autocheckpoint(db)).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: written });

    await checkpointer.stop();
    db.close();
  });

  it("gives the serving connection its own checkpoints back when the worker ends on its own", async () => {
    const { file, db } = await walDatabase();
    const checkpointer = new WalCheckpointer(file, db, gate(), silentLogger());
    await until("the worker to take the checkpoints over", () => autocheckpoint(db) === 0);
    await internals(checkpointer).worker!.terminate();
    await until("the serving connection to checkpoint again", () => autocheckpoint(db) === 1000);
    await checkpointer.stop(); // already ended: resolves at once
    db.close();
  });

  it("ends the worker when no commit comes, checkpoints on the serving connection meanwhile, and starts it again once commits come", async () => {
    const { file, db } = await walDatabase();
    const writes = gate();
    const checkpointer = new WalCheckpointer(file, db, writes, silentLogger(), { intervalMs: 5, restartFrames: 64, restAfterMs: 150, wakeAfterCommits: 3 });
    const worker = () => internals(checkpointer).worker;
    let written = 0;
    const commit = (rows: number) => {
      commitRows(db, written, rows);
      written += rows;
      checkpointer.committed();
    };
    // Committing meanwhile: on a loaded machine a worker may take longer than a rest period to start.
    await until("the worker to take the checkpoints over", () => autocheckpoint(db) === 0 || (commit(5), false), 10_000, 20);

    // Commits keep it running: every rest period sees one.
    const first = worker();
    for (const started = Date.now(); Date.now() - started < 600; ) {
      commit(5);
      await sleep(20);
    }
    expect(worker()).toBe(first);

    await until("the idle worker to end", () => worker() === undefined, 5_000);
    expect(autocheckpoint(db)).toBe(1000);
    // Its passes copied the whole WAL before it ended: the next commit rewinds it.
    const rewound = walRewinds(file);
    commit(5);
    expect(walRewinds(file)).toBe(rewound + 1);
    // A trickle of commits does not wake it: the third does.
    commit(5);
    expect(worker()).toBeUndefined();
    commit(5);
    // Committing meanwhile again, so that the new worker stays until this look sees it.
    await until("a new worker to take the checkpoints over", () => (worker() !== undefined && autocheckpoint(db) === 0) || (commit(5), false), 10_000, 20);
    expect(worker()).not.toBe(first);
    // And the WAL is checkpointed and rewound again while it grows: the serving connection no
    // longer checkpoints (0 above), so only the new worker can have copied it.
    const before = walRewinds(file);
    await until(
      "the new worker to rewind the WAL",
      () => {
        if (walRewinds(file) > before) return true;
        if (!writes.held) commit(20);
        return false;
      },
      10_000,
      1,
    );
    expect(autocheckpoint(db)).toBe(0);

    await checkpointer.stop();
    expect(worker()).toBeUndefined();
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: written });
    db.close();
  });

  it("starts a worker again when a commit comes while the idle one is ending, and ends with the store while resting", async () => {
    const { file, db } = await walDatabase();
    // Its own timer never fires in this test: the looks it takes are made here, in order.
    const checkpointer = new WalCheckpointer(file, db, gate(), silentLogger(), { intervalMs: 5, restAfterMs: 600_000, wakeAfterCommits: 1 });
    const inside = internals(checkpointer);
    const restNow = () => {
      inside.restIfIdle(); // the first look sees the commits so far
      inside.restIfIdle(); // the second, none since
    };
    await until("the worker to take the checkpoints over", () => autocheckpoint(db) === 0);
    restNow();
    expect(inside.state).toBe("resting");
    expect(autocheckpoint(db)).toBe(1000);
    const ending = inside.worker;
    commitRows(db, 0, 5);
    checkpointer.committed();
    await until("a new worker", () => inside.worker !== undefined && inside.worker !== ending && autocheckpoint(db) === 0);
    expect(inside.state).toBe("running");

    restNow();
    await until("the new worker to rest too", () => inside.state === "rested");
    await checkpointer.stop(); // nothing running: resolves at once
    expect(inside.worker).toBeUndefined();
    // Stopped for good: a commit now starts nothing.
    commitRows(db, 5, 5);
    checkpointer.committed();
    expect(inside.worker).toBeUndefined();
    db.close();
  });

  it("reports a reader that holds an old snapshot, and asks for no holds while it does", async () => {
    const { file, db } = await walDatabase();
    const logged: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString("utf8"));
        done();
      },
    });
    const writes = gate();
    const checkpointer = new WalCheckpointer(file, db, writes, createLogger({ level: "warn", destination }), { intervalMs: 5, restartFrames: 64 });
    await until("the worker to take the checkpoints over", () => autocheckpoint(db) === 0);
    commitRows(db, 0, 10);
    db.pragma("wal_checkpoint(PASSIVE)");

    // Another connection (as another process would) reads and keeps its snapshot open.
    const reader = new Database(file);
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM t").get();
    const holdsBefore = writes.holds;
    let written = 10;
    for (; written < 1_000; written += 20) {
      commitRows(db, written, 20);
      await sleep(1); // a store's pace: the worker gets its passes in between, and must skip the WAL
    }
    await until("the held-back WAL to be reported", () => logged.some((line) => line.includes("holds an old snapshot")));
    // One hold at most: a pass that copied up to the snapshot, if the worker had not got there
    // before the reader began, cannot yet tell it from progress.
    expect(writes.holds - holdsBefore).toBeLessThanOrEqual(1);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(900 * 4096); // nothing could be rewound
    reader.exec("COMMIT");
    reader.close();

    // Once the reader is gone the WAL is copied and rewound again.
    const rewound = walRewinds(file);
    // Writing on (1 ms apart, as a store's commits come) while waiting: only new frames start a pass.
    await until(
      "the WAL to be rewound again",
      () => {
        if (walRewinds(file) !== rewound) return true;
        if (!writes.held) {
          commitRows(db, written, 20);
          written += 20;
        }
        return false;
      },
      10_000,
      1,
    );

    await checkpointer.stop();
    db.close();
  });
});

describe("the embedded store's checkpoint worker", () => {
  it("ends with the store: its thread is gone when close resolves, and the store's own close checkpoints and removes the WAL", async () => {
    const dir = await tempDir();
    const before = threads();
    const store = createEmbeddedStore({ dir, logger: silentLogger() });
    const col = store.collection<{ _id: string }>("docs");
    for (let i = 0; i < 50; i++) await col.insertOne({ _id: `d${i}` });
    await until("the worker thread to start", () => threads() > before);
    expect(existsSync(join(dir, "payrail.sqlite-wal"))).toBe(true);
    await store.close();
    expect(threads()).toBe(before);
    expect(existsSync(join(dir, "payrail.sqlite-wal"))).toBe(false);

    const reopened = createEmbeddedStore({ dir, logger: silentLogger() });
    expect(await reopened.collection("docs").countDocuments({})).toBe(50);
    await reopened.close();
  });

  it("rests its worker while no write comes: the thread ends, and writes start it again", async () => {
    const dir = await tempDir();
    const before = threads();
    const store = createEmbeddedStore({ dir, logger: silentLogger(), checkpoints: { restAfterMs: 150, wakeAfterCommits: 2 } });
    const col = store.collection<{ _id: string; n: number }>("docs");
    await col.insertOne({ _id: "a", n: 1 });
    await until("the worker thread to start", () => threads() > before);
    // Reads commit nothing: they do not keep it running.
    await until(
      "the worker thread to end",
      async () => {
        await col.findOne({ _id: "a" });
        return threads() === before;
      },
      5_000,
    );
    await col.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } });
    expect(threads()).toBe(before); // one write is a trickle
    await col.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } });
    await until("the worker thread to start again", () => threads() > before);
    await store.close();
    expect(threads()).toBe(before);

    const reopened = createEmbeddedStore({ dir, logger: silentLogger() });
    expect(await reopened.collection("docs").findOne({ _id: "a" })).toEqual({ _id: "a", n: 3 });
    await reopened.close();
  });
});
