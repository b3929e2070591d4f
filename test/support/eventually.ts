import { vi } from "vitest";

/**
 * Waits until `check` stops throwing (an expect that holds), for at most 15 s, and answers what
 * it returned: services learn of each other's changes from events, asynchronously, so a test
 * waits on the state it expects rather than sleeping.
 */
export function eventually<T>(check: () => Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 15_000, interval: 25 });
}

/** A stored document without its outbox fields, which the relay changes as it publishes. */
export function withoutOutbox<T extends Record<string, unknown>>(doc: T | null): Omit<T, "_outbox" | "outboxPending" | "outboxAt"> | null {
  if (!doc) return null;
  const { _outbox: _sent, outboxPending: _pending, outboxAt: _at, ...rest } = doc;
  return rest;
}
