/**
 * Runs async sections one at a time per key, in call order. Used by the embedded adapter to
 * make each collection's multi-step writes (find, check indexes, write) atomic, and by the
 * MongoDB adapter on FerretDB to avoid hammering the cross-process lock from one process.
 */
export class KeyedMutex {
  /** Per key, the promise that resolves when the last queued section has finished. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, section: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => done);
    this.tails.set(key, tail);
    try {
      await previous;
      return await section();
    } finally {
      release();
      // Forget idle keys so the map does not grow with every collection ever touched.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** True while a section on `key` runs or waits: one run now would wait its turn. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  /** Resolves when every section queued so far has finished (used before closing). */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
