/**
 * What the checkpoint worker is told when it starts (its `workerData`).
 */
export interface CheckpointWorkerData {
  /** Absolute path of better-sqlite3's entry, resolved by the main thread. */
  driver: string;
  /** The database file (not its -wal). */
  file: string;
  /** Pause between two checkpoint passes. */
  intervalMs: number;
  /** A WAL of at least this many frames is rewound, so that it cannot keep growing. */
  restartFrames: number;
  /** Least time between two reports that another connection holds the WAL back. */
  reportEveryMs: number;
}

/**
 * What the worker posts to the main thread: it is running; it asks for commits to be held while
 * it copies the WAL's last frames, then released; a reader holds the WAL back.
 */
export type CheckpointWorkerMessage =
  | { kind: "ready" }
  | { kind: "hold-writes" }
  | { kind: "release-writes" }
  | { kind: "held-back"; log: number; checkpointed: number };

/** What the main thread posts to the worker. */
export type CheckpointWorkerCommand = "writes-held" | "stop";

/**
 * The checkpoint worker's code, run with `new Worker(source, { eval: true })`. It is a string
 * rather than a file of its own so that the production bundle (bin/build.ts), which has no
 * separate worker file to point at, runs it unchanged; it loads the driver by the absolute path
 * the main thread resolved, so it needs no module resolution of its own.
 *
 * Each pass runs a PASSIVE checkpoint: it copies to the database file every WAL frame that no
 * reader still needs, without taking any lock the serving connection waits on, so commits go on
 * meanwhile. SQLite rewinds the WAL (the next commit writes from its start again) only once a
 * checkpoint has copied all of it, which a PASSIVE pass under steady writes never does: frames
 * arrive while it copies. So once the WAL has reached `restartFrames` the worker rewinds it:
 * it writes the copied pages to disk (fdatasync) and copies what arrived meanwhile, both while
 * commits go on, then asks the main thread to hold its commits (queued, not refused; the event
 * loop keeps running) and copies the last few frames. The main thread releases the commits when
 * told, or after a limit at most (wal-checkpointer.ts), and its next commit rewinds the WAL. The WAL therefore
 * stays within `restartFrames` plus what is written during one pass.
 *
 * Nothing can copy past a reader's snapshot. The store's own reads share a snapshot for at most
 * one turn of the event loop and never across one of its commits (sqlite-host.ts, openRead), so
 * that snapshot is always the WAL's end, and a reader that holds the WAL back can only be another
 * connection (another process): seen as a
 * pass that copied nothing new although frames wait and the WAL was not rewound. The worker then
 * reports it and does not ask for holds; the WAL grows until that reader ends.
 */
export const CHECKPOINT_WORKER_SOURCE = `
"use strict";
const { closeSync, fdatasyncSync, openSync } = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const dbFile = openSync(workerData.file, "r");
let timer;
let before = { log: 0, checkpointed: 0 };
let lastReport = 0;
const checkpoint = () => db.pragma("wal_checkpoint(PASSIVE)")[0];
function pass() {
  const passive = checkpoint();
  const heldBack = passive.checkpointed < passive.log && passive.checkpointed <= before.checkpointed && passive.log >= before.log;
  before = passive;
  if (heldBack && Date.now() - lastReport >= workerData.reportEveryMs) {
    lastReport = Date.now();
    parentPort.postMessage({ kind: "held-back", log: passive.log, checkpointed: passive.checkpointed });
  }
  if (heldBack || passive.log < workerData.restartFrames) {
    timer = setTimeout(pass, workerData.intervalMs);
    return;
  }
  fdatasyncSync(dbFile);
  checkpoint();
  parentPort.postMessage({ kind: "hold-writes" }); // the next pass follows "writes-held"
}
parentPort.on("message", (command) => {
  if (command === "writes-held") {
    before = checkpoint();
    parentPort.postMessage({ kind: "release-writes" });
    timer = setTimeout(pass, workerData.intervalMs);
  } else if (command === "stop") {
    clearTimeout(timer);
    // A last pass: a worker that rests leaves the WAL copied whole, so the next commit rewinds
    // it. One that fails leaves the copy to the next checkpointer, as any pass would.
    try {
      checkpoint();
    } catch {}
    db.close();
    closeSync(dbFile);
    parentPort.close();
  }
});
parentPort.postMessage({ kind: "ready" });
timer = setTimeout(pass, workerData.intervalMs);
`;
