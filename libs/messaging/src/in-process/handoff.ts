/**
 * How long a publish waits for a service to handle an event handed to it straight, before a
 * copy is kept in the durable queue instead: as long as the outbox relay's default poll, so a
 * handler that hangs holds its relay's pass up by about one poll, not for ever.
 */
export const HANDOFF_WAIT_MS = 1_000;

/**
 * One event handed straight to one service's consumer, with no copy in the durable queues
 * (embedded mode; see InProcessEvents.publish). The publish waits on `settled`, which resolves
 * once the service handled the event (or dead-lettered it), or once a copy is kept for it: the
 * attempt failed and is retried later, or the handler was still running after `waitMs`. So an
 * event the outbox relay marks sent is always handled or kept. `settled` rejects when neither
 * could be (the store refused the copy, the transport closed under the handler): the relay then
 * leaves the event in its outbox and publishes it again.
 */
export class Handoff {
  /** The copy, once asked for: from then on the event's outcomes go to the store as for any kept event. */
  kept: Promise<void> | undefined;
  readonly settled: Promise<void>;
  private resolve!: () => void;
  private reject!: (err: Error) => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: () => Promise<void>,
    waitMs: number,
  ) {
    this.settled = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A rejection reaches the publish through `settled`; the timer has nobody else to tell.
    this.timer = setTimeout(() => this.keep().catch(() => undefined), waitMs);
    // unref: a pending handoff must not keep a stopping process alive; its event is still in the outbox.
    this.timer.unref();
  }

  /**
   * Writes the copy once (later calls share the first write) and settles the publish with its
   * outcome. `write` replaces the constructor's, for a copy written with more than the event.
   */
  keep(write = this.write): Promise<void> {
    clearTimeout(this.timer);
    if (!this.kept) {
      this.kept = write();
      this.kept.then(this.resolve, this.reject);
    }
    return this.kept;
  }

  /** Handled or dead-lettered while nothing was written: the publish resolves. */
  done(): void {
    clearTimeout(this.timer);
    this.resolve();
  }

  /** Neither handled nor kept: the publish rejects, and the event stays in its outbox. */
  fail(err: Error): void {
    clearTimeout(this.timer);
    this.reject(err);
  }
}
