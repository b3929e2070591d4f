import { AppError } from "@payrail/contracts";

/**
 * Fixed one-minute windows per credential (API.md §9), kept in this gateway's memory: with
 * several gateways each enforces the limit on its own share of the traffic.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request for `key`; throws 429 with Retry-After once the window is full. */
  hit(key: string, now = Date.now()): void {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > this.perMinute) {
      const retryAfter = Math.ceil((w.start + this.windowMs - now) / 1000);
      throw new AppError("rate_limited", `too many requests; retry in ${retryAfter} s`, { retryAfter });
    }
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
