import type { Store } from "../store.port.ts";

/**
 * Values of a named sequence handed out from blocks this process reserved, so that many values
 * cost one counter write instead of one each (on a FerretDB test server every write to the one
 * counter document queues behind a per-document lock; in the embedded store it is a group commit
 * ahead of the insert that needs the value).
 *
 * A block is `size` values, or as many as callers are waiting when it is reserved if that is
 * more: with `size` 1, nothing is reserved ahead of a caller, yet a burst of callers costs one
 * write per round trip instead of one each, since those that arrive while a reservation is on
 * its way share the next one. One reservation at a time per process.
 *
 * Unique across instances and restarts: each block is one atomic `$inc` of the shared counter,
 * so no two reservations overlap, and values never reserved are never handed out. What a
 * process did not use of its block is skipped for good (gaps), and values from two instances
 * interleave: within one process they rise, across processes they are only unique.
 */
export class SequenceBlocks {
  private next = 1;
  private last = 0;
  /** Callers in `take` without a value yet: the least the next reservation takes. */
  private waiting = 0;
  private reserving: Promise<void> | undefined;

  constructor(
    private readonly store: Pick<Store, "reserveSequence">,
    private readonly name: string,
    private readonly size: number,
  ) {
    if (!Number.isSafeInteger(size) || size < 1) throw new Error(`sequence ${name}: block size ${size} is not a positive integer`);
  }

  async take(): Promise<number> {
    this.waiting++;
    try {
      while (this.next > this.last) {
        this.reserving ??= this.reserve().finally(() => (this.reserving = undefined));
        await this.reserving;
      }
      return this.next++;
    } finally {
      this.waiting--;
    }
  }

  private async reserve(): Promise<void> {
    const count = Math.max(this.size, this.waiting);
    const last = await this.store.reserveSequence(this.name, count);
    this.next = last - count + 1;
    this.last = last;
  }
}
