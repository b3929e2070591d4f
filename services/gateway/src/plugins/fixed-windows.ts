/** One key's window: requests counted in it, and when it opened (epoch ms). */
export interface Window {
  count: number;
  openedAt: number;
}

/**
 * Fixed windows of `windowMs` per key, in this process's memory: a key's window opens at its
 * first request and counts every request until it ends; the next request then opens a new
 * one. At most `capacity` keys are remembered, the least recently used forgotten first (a
 * forgotten key starts afresh), as @fastify/rate-limit's local store does with its LRU of 5,000.
 * `open` makes a key's new window: the shared limits' windows carry more and start on the
 * clock's window boundary, so that every gateway names the same one (shared-windows.ts).
 */
export class FixedWindows<W extends Window = Window> {
  private readonly windows = new Map<string, W>();
  /** The key of the last hit: already the most recently used, so a run of its hits skips the reorder. */
  private lastKey: string | undefined;

  constructor(
    readonly windowMs: number,
    private readonly capacity = 5_000,
    private readonly open: (now: number) => W = (now) => ({ count: 0, openedAt: now }) as W,
  ) {}

  /** Counts one request of `key` at `now`; the key's window after it. */
  hit(key: string, now: number): W {
    let window = this.windows.get(key);
    if (window !== undefined && key === this.lastKey && window.openedAt + this.windowMs > now) {
      window.count += 1;
      return window;
    }
    this.lastKey = key;
    if (window === undefined) {
      if (this.windows.size >= this.capacity) this.windows.delete(this.windows.keys().next().value as string);
      window = this.open(now);
    } else {
      // Map keeps insertion order: taken out and set again, the key is the most recently used.
      this.windows.delete(key);
      if (window.openedAt + this.windowMs <= now) window = this.open(now);
    }
    window.count += 1;
    this.windows.set(key, window);
    return window;
  }

  /** `key`'s window at `now` if it has one still open, without counting or making it the most recently used. */
  peek(key: string, now: number): W | undefined {
    const window = this.windows.get(key);
    return window !== undefined && window.openedAt + this.windowMs > now ? window : undefined;
  }
}
