import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { Logger } from "@payrail/runtime";
import {
  CHECKPOINT_WORKER_SOURCE,
  type CheckpointWorkerCommand,
  type CheckpointWorkerData,
  type CheckpointWorkerMessage,
} from "./wal-checkpoint.worker-source.ts";

/** SQLite's own default: a checkpoint inside the commit that takes the WAL past 1000 pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** The worker's pace and bound, and the longest hold of commits; tests pass smaller ones. */
export interface CheckpointSettings extends Omit<CheckpointWorkerData, "driver" | "file"> {
  holdLimitMs: number;
  /** A worker that saw no commit for at least this long (and at most twice it) ends. */
  restAfterMs: number;
  /** The commit, counted from its rest, that starts a worker again. */
  wakeAfterCommits: number;
}

const DEFAULT_SETTINGS: CheckpointSettings = {
  intervalMs: 100,
  // 32768 frames of 4 KiB pages: the WAL is rewound each time it reaches ~128 MiB. Each rewind
  // holds commits for its last copy and two fsyncs (milliseconds, tens on a busy disk), so it
  // should be rare: at 1,000 creates/s (~12 MB/s of WAL) it comes every ~10 s.
  restartFrames: 32768,
  reportEveryMs: 60_000,
  // The last copy is a few frames and two small fsyncs; a slower disk only delays the rewind.
  holdLimitMs: 100,
  // The worker's isolate is 4-5 MB of an idle process's RSS, and what it freed stays in its
  // thread's malloc arena unless glibc has few of them (docs/decisions/0039-lean-request-path.md);
  // starting one again costs a few milliseconds of another core, once per busy spell.
  restAfterMs: 15_000,
  // An idle service still commits now and then (a periodic job's lease, once a minute): such a
  // trickle does not need the worker, but a burst does before its WAL reaches the 1000 pages at
  // which the serving connection's own checkpoint would start, in the commit on the event loop.
  // A busy store's commits are group commits of tens of pages, so the worker is asked early.
  wakeAfterCommits: 8,
};

/**
 * What the WAL file is cut back to when it is rewound: it only grows past the worker's bound
 * while another process holds an old snapshot, and should not keep that size afterwards.
 */
const WAL_FILE_LIMIT_BYTES = 256 * 1024 * 1024;

/** If the worker does not end within this after being told to stop, it is terminated. */
const STOP_GRACE_MS = 5_000;

/** What the checkpointer asks of the store's write queue. */
export interface WriteGate {
  /** Stop committing: queue new writes (the event loop keeps running). */
  holdWrites(): void;
  /** Commit again, the queued writes first. */
  releaseWrites(): void;
}

/**
 * Where the worker is: taking the checkpoints; told to end for want of commits, or ended so
 * (the next commit starts another); ended on its own (the serving connection checkpoints from
 * then on); or ending with the store.
 */
type WorkerState = "running" | "resting" | "rested" | "failed" | "stopping";

/**
 * Runs the WAL checkpoints of one database file in a worker thread with its own connection,
 * so that the serving connection's commits never include one. SQLite's automatic checkpoint
 * runs inside the COMMIT that takes the WAL past 1000 pages: it copies those pages into the
 * database file and fsyncs both files, on the event loop, and every request in flight waits for
 * it (docs/decisions/0016-embedded-store.md, "WAL checkpoints in a worker thread"). The worker's protocol is in
 * wal-checkpoint.worker-source.ts.
 *
 * The serving connection keeps SQLite's automatic checkpoint whenever no worker runs: until one
 * is ready, if one ever stops on its own, and while it rests. So the WAL is never left without a
 * checkpointer. Durability is unchanged: a checkpoint only copies committed frames, and SQLite
 * makes it safe from any connection of any thread.
 *
 * An idle store needs no worker: one that saw no commit for `restAfterMs` ends, and the
 * `wakeAfterCommits`th commit since (`committed`) starts another. Meanwhile the serving
 * connection's own checkpoint covers the WAL; the worker copied all of it in a last pass as it
 * ended, so the first commit after a rest rewinds it, and a trickle of commits seldom takes it
 * to the 1000 pages where that checkpoint starts.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();
  private state: WorkerState = "running";
  private readonly holdLimitMs: number;
  private readonly workerData: CheckpointWorkerData;
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly restTimer: NodeJS.Timeout;
  private readonly wakeAfterCommits: number;
  private commits = 0;
  private commitsSeen = 0;
  private commitsAtRest = 0;
  private announced = false;
  /** The running worker said it was ready. */
  private ready = false;

  constructor(
    file: string,
    private readonly db: Database.Database,
    private readonly gate: WriteGate,
    private readonly log: Logger,
    settings: Partial<CheckpointSettings> = {},
  ) {
    const { holdLimitMs, restAfterMs, wakeAfterCommits, ...worker } = { ...DEFAULT_SETTINGS, ...settings };
    this.holdLimitMs = holdLimitMs;
    this.wakeAfterCommits = wakeAfterCommits;
    db.pragma(`journal_size_limit = ${WAL_FILE_LIMIT_BYTES}`);
    this.workerData = { driver: createRequire(import.meta.url).resolve("better-sqlite3"), file, ...worker };
    this.start();
    this.restTimer = setInterval(() => this.restIfIdle(), restAfterMs);
    this.restTimer.unref();
  }

  /** The serving connection committed: enough commits start a resting worker again. */
  committed(): void {
    this.commits += 1;
    if (this.state === "rested" && this.wakes()) this.start();
  }

  /** Ends the worker and its connection; resolves once the thread has exited. */
  async stop(): Promise<void> {
    clearInterval(this.restTimer);
    if (this.state !== "stopping") {
      const told = this.state === "resting"; // ending already
      this.state = "stopping";
      this.release();
      if (this.worker) {
        this.worker.ref(); // the store's close waits for it
        if (!told) this.end(this.worker);
      }
    }
    await this.exited;
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = new Worker(CHECKPOINT_WORKER_SOURCE, { eval: true, workerData: this.workerData });
    } catch (err) {
      // No thread to be had (resources): the serving connection goes on checkpointing.
      this.state = "failed";
      this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
      this.log.warn({ err }, "WAL checkpoint worker could not start; checkpoints stay on the serving connection");
      return;
    }
    this.worker = worker;
    this.state = "running";
    this.ready = false;
    // An embedded store that is never closed must not keep its process alive.
    worker.unref();
    this.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (message: CheckpointWorkerMessage) => this.onMessage(message));
    worker.on("error", (err) => this.log.warn({ err }, "WAL checkpoint worker failed; checkpoints are back on the serving connection"));
    worker.once("exit", () => this.onExit());
  }

  /** Tells `worker` to end, and terminates it if it does not within the grace. */
  private end(worker: Worker): void {
    worker.postMessage("stop" satisfies CheckpointWorkerCommand);
    const force = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    force.unref();
    void this.exited.then(() => clearTimeout(force));
  }

  /** Every `restAfterMs`: a worker that saw no commit since the last look, and holds nothing, ends. */
  private restIfIdle(): void {
    const idle = this.commits === this.commitsSeen;
    this.commitsSeen = this.commits;
    // A worker still starting (slow on a loaded machine) is not told to end before it is ready.
    if (!idle || this.state !== "running" || !this.ready || this.holdTimer || !this.worker) return;
    this.state = "resting";
    this.commitsAtRest = this.commits;
    this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
    this.end(this.worker);
  }

  private onExit(): void {
    this.release();
    this.worker = undefined;
    if (this.state === "resting") {
      this.state = "rested";
      // Commits came while it was ending.
      if (this.wakes()) this.start();
      return;
    }
    if (this.state === "running") {
      this.state = "failed";
      this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
    }
  }

  private wakes(): boolean {
    return this.commits - this.commitsAtRest >= this.wakeAfterCommits;
  }

  private onMessage(message: CheckpointWorkerMessage): void {
    // A worker told to end asks for nothing more.
    if (this.state !== "running") return;
    switch (message.kind) {
      case "ready":
        this.ready = true;
        this.autocheckpoint(0);
        // Once: a worker started again after a rest is routine.
        if (!this.announced) this.log.info("WAL checkpoints run in a worker thread");
        this.announced = true;
        return;
      case "hold-writes":
        this.gate.holdWrites();
        this.holdTimer = setTimeout(() => this.release(), this.holdLimitMs);
        this.worker?.postMessage("writes-held" satisfies CheckpointWorkerCommand);
        return;
      case "release-writes":
        this.release();
        return;
      case "held-back":
        this.log.warn(
          { walFrames: message.log, copiedFrames: message.checkpointed },
          "another connection holds an old snapshot of the embedded store: its WAL cannot be checkpointed past it and grows until that reader ends",
        );
    }
  }

  private release(): void {
    if (!this.holdTimer) return;
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.gate.releaseWrites();
  }

  private autocheckpoint(pages: number): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }
}
