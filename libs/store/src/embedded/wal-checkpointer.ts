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
 * Runs the WAL checkpoints of one database file in a worker thread with its own connection,
 * so that the serving connection's commits never include one. SQLite's automatic checkpoint
 * runs inside the COMMIT that takes the WAL past 1000 pages: it copies those pages into the
 * database file and fsyncs both files, on the event loop, and every request in flight waits for
 * it (docs/decisions/0016-embedded-store.md, "WAL checkpoints in a worker thread"). The worker's protocol is in
 * wal-checkpoint.worker-source.ts.
 *
 * The serving connection keeps SQLite's automatic checkpoint until the worker is running, and
 * gets it back if the worker ever stops on its own, so the WAL is never left without a
 * checkpointer. Durability is unchanged: a checkpoint only copies committed frames, and SQLite
 * makes it safe from any connection of any thread.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private readonly holdLimitMs: number;
  private holdTimer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    file: string,
    private readonly db: Database.Database,
    private readonly gate: WriteGate,
    private readonly log: Logger,
    settings: Partial<CheckpointSettings> = {},
  ) {
    const { holdLimitMs, ...worker } = { ...DEFAULT_SETTINGS, ...settings };
    this.holdLimitMs = holdLimitMs;
    db.pragma(`journal_size_limit = ${WAL_FILE_LIMIT_BYTES}`);
    const workerData: CheckpointWorkerData = { driver: createRequire(import.meta.url).resolve("better-sqlite3"), file, ...worker };
    this.worker = new Worker(CHECKPOINT_WORKER_SOURCE, { eval: true, workerData });
    // An embedded store that is never closed must not keep its process alive.
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.on("message", (message: CheckpointWorkerMessage) => this.onMessage(message));
    this.worker.on("error", (err) => log.warn({ err }, "WAL checkpoint worker failed; checkpoints are back on the serving connection"));
    this.worker.once("exit", () => {
      this.release();
      if (!this.stopping) this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
    });
  }

  /** Ends the worker and its connection; resolves once the thread has exited. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.release();
      this.worker.ref(); // the store's close waits for it
      this.send("stop");
      const force = setTimeout(() => void this.worker.terminate(), STOP_GRACE_MS);
      force.unref();
      void this.exited.then(() => clearTimeout(force));
    }
    await this.exited;
  }

  private onMessage(message: CheckpointWorkerMessage): void {
    if (this.stopping) return;
    switch (message.kind) {
      case "ready":
        this.autocheckpoint(0);
        this.log.info("WAL checkpoints run in a worker thread");
        return;
      case "hold-writes":
        this.gate.holdWrites();
        this.holdTimer = setTimeout(() => this.release(), this.holdLimitMs);
        this.send("writes-held");
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

  private send(command: CheckpointWorkerCommand): void {
    this.worker.postMessage(command);
  }

  private autocheckpoint(pages: number): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }
}
