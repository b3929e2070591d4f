import type { Store } from "../store.port.ts";

/**
 * Values of a named sequence handed out from blocks this process reserved, so that `size`
 * values cost one counter write instead of one each (on a FerretDB test server every write
 * to the one counter document queues behind a per-document lock; in the embedded store it is
 * a group commit ahead of the insert that needs the value).
 *
 * Unique across instances and restarts: each block is one atomic `$inc` of the shared counter,
 * so no two reservations overlap, and values never reserved are never handed out. What a
 * process did not use of its block is skipped for good (gaps), and values from two instances
 * interleave: within one process they rise, across processes they are only unique.
 * Concurrent callers that find the block used up wait for one shared reservation.
 */
export class SequenceBlocks {
  private next = 1;
  private last = 0;
  private reserving: Promise<void> | undefined;

  constructor(
    private readonly store: Pick<Store, "reserveSequence">,
    private readonly name: string,
    private readonly size: number,
  ) {
    if (!Number.isSafeInteger(size) || size < 1) throw new Error(`sequence ${name}: block size ${size} is not a positive integer`);
  }

  async take(): Promise<number> {
    while (this.next > this.last) {
      this.reserving ??= this.reserve().finally(() => (this.reserving = undefined));
      await this.reserving;
    }
    return this.next++;
  }

  private async reserve(): Promise<void> {
    const last = await this.store.reserveSequence(this.name, this.size);
    this.next = last - this.size + 1;
    this.last = last;
  }
}
