import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { Collection } from "../store.port.ts";

export interface RetentionSweepOptions<T extends { _id: string }> {
  collection: Collection<T>;
  /** The indexed field (epoch ms or ISO time) whose values below `before()` are past retention. */
  field: string;
  /** Worked out again at each pass. */
  before: () => string | number;
  /** Records deleted per pass: bounds one delete's cost (FerretDB scans per statement). */
  batch: number;
  /** `due()` starts a sweep at most this often. */
  everyMs: number;
  now?: () => number;
  /** A failed sweep is left to the next `due()`; this hears of it. */
  onError?: (err: unknown) => void;
}

export interface RetentionSweep {
  /** Starts a sweep behind the caller when one is due and none runs; never waits, never throws. */
  due(): void;
  /** Sweeps now (or joins the running sweep) until a pass finds less than a batch; how many it deleted. */
  run(): Promise<number>;
}

/**
 * Deletes expired records in bounded passes, one after another until a pass comes back short,
 * so a sweep always catches up with what accumulated since the last one, however many inserts
 * that was, without one unbounded delete. One sweep per process at a time; several processes
 * sweeping the same collection only share the work (a record is deleted once).
 */
export function createRetentionSweep<T extends { _id: string }>(options: RetentionSweepOptions<T>): RetentionSweep {
  const { collection, field, before, batch, everyMs, now = Date.now } = options;
  // The first `due()` sweeps at once: a restarted process catches up on what waited meanwhile.
  let lastStart = now() - everyMs;
  let running: Promise<number> | null = null;

  const run = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      for (;;) {
        const deleted = await collection.deleteOldest(field, before(), { limit: batch });
        total += deleted;
        if (deleted < batch) return total;
        // Between passes, the requests this process serves go first.
        await yieldToEvents();
      }
    })().finally(() => (running = null));
    return running;
  };

  return {
    run,
    due() {
      if (running || now() - lastStart < everyMs) return;
      lastStart = now();
      run().catch((err: unknown) => options.onError?.(err));
    },
  };
}
