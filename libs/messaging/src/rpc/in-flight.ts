/** Counts running handlers so `close()` can let them finish (up to a grace period). */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  get size(): number {
    return this.running.size;
  }

  /** Remembers `work` until it settles, and hands it back as it is (no wrapping promise per call). */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    // Inline callbacks: a named one would cost the bundle's keepNames a defineProperty per call.
    work.then(
      () => this.running.delete(work),
      () => this.running.delete(work),
    );
    return work;
  }

  /** Resolves when everything tracked has settled, or after `graceMs`, whichever is first. */
  async drain(graceMs: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
  }
}
