/**
 * Thrown for an event that can never apply, whatever the retries: a handler throws it for an
 * aggregate it does not know and never will (an unknown checkout), and `publish` throws it for
 * an event that fails its type's schema. A subscriber dead-letters such an event at once
 * instead of retrying it; an outbox relay dead-letters it instead of publishing it on every
 * pass. Any other throw is retried (see `RetryPolicy`).
 *
 * Recognised by `name` as well as by class (`cannotApply`), so that a copy of this package
 * bundled twice, or libs/store (which does not import messaging), still tells it apart.
 */
export class EventCannotApply extends Error {
  override readonly name = "EventCannotApply";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `err` says the event can never apply (an `EventCannotApply`, by class or name). */
export function cannotApply(err: unknown): boolean {
  return err instanceof Error && err.name === "EventCannotApply";
}
