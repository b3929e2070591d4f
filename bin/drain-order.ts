import type { Transport } from "@payrail/messaging";
import { handlerDrainMs, type Stoppable } from "@payrail/runtime";

/** What faces clients of a process: stopped first, before anything it calls stops. */
const FRONT = new Set(["gateway", "metrics-server"]);

/**
 * A process's started parts in the order to push them on its stop list (stopped last first), so
 * that SIGTERM drains it (docs/guide/operator.md, Stopping and draining): the health listener and
 * the gateway first (its `/readyz` turns 503, it serves for DRAIN_DELAY_MS, then finishes what it
 * took); then the domain services' consumers, so queued requests and events wait for another
 * replica while the ones running finish (up to `handlerDrainMs`: a caller's deadline and one
 * nested call's); then the services themselves: their workers claim nothing more, finish or give back their
 * leases, and their relays publish what was written. The transport and the store close after.
 */
export function inDrainOrder(started: readonly Stoppable[], transport: Pick<Transport, "stopServing">, rpcTimeoutMs: number): Stoppable[] {
  const domain = started.filter((s) => !FRONT.has(s.name));
  const front = started.filter((s) => FRONT.has(s.name));
  const consumers = domain.length > 0 ? [{ name: "consumers", stop: () => transport.stopServing(handlerDrainMs(rpcTimeoutMs)) }] : [];
  return [...domain, ...consumers, ...front];
}
