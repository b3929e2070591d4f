/**
 * The loop of a worker that claims due work from the store: it looks at once when started or
 * told of new work (`notify`), then every `pollMs`; one look at a time (a notify during a look
 * makes the next one come at once); the work it claims runs concurrently and, when it ends,
 * frees its slot and looks again. Subclasses say how to claim (`claimDue`), each claim under a
 * lease of its own, so replicas share the work (webhook deliveries, consumer notices).
 */
export abstract class PollingWorker {
  /** The claimed work running now. */
  protected readonly running = new Set<Promise<void>>();
  protected stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;

  constructor(
    private readonly pollMs: number,
    private readonly onPollError: (err: unknown) => void,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** New work was written, or a slot came free: look now rather than at the next poll. */
  notify(): void {
    if (this.stopped) return;
    if (this.ticking) this.again = true;
    else this.schedule(0);
  }

  /** Stops claiming, then waits for the work in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }

  /** One look: claims what is due, as much as there are free slots, and starts it with `track`. */
  protected abstract claimDue(): Promise<void>;

  /**
   * Runs claimed work; when it ends (whatever the outcome, which `work` handles), `onEnd`, then a
   * new look unless `lookAgain` is false (work that was not found by a look frees no batch).
   */
  protected track(work: Promise<void>, onEnd?: () => void, lookAgain = true): void {
    const running: Promise<void> = work.finally(() => {
      this.running.delete(running);
      onEnd?.();
      if (lookAgain) this.notify();
    });
    this.running.add(running);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      await this.claimDue();
    } catch (err) {
      this.onPollError(err);
    } finally {
      this.ticking = false;
      if (!this.stopped) this.schedule(this.again ? 0 : this.pollMs);
      this.again = false;
    }
  }
}
