import type { Logger } from "pino";
import { releaseHeldLeases } from "./lease-heartbeat.ts";
import { flushLogger } from "./logger.ts";

/** Something started that must be stopped, in reverse order of starting. */
export interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/** Left at the end of a drain to give back the leases of work that did not finish, and to exit. */
const LEASE_RELEASE_MARGIN_MS = 2_000;
/** Beyond the longest request: the workers' last writes, the relays' last events, closing the store. */
const DRAIN_SLACK_MS = 5_000;

/**
 * How long the handlers running on a domain service's consumers may take once those are
 * cancelled: their caller waits at most one RPC deadline from sending, but a handler may be
 * awaiting another service's RPC of its own, issued before that deadline with a full deadline of
 * its own (refunds → payments → checkout), so the last answer it waits for can come one deadline
 * later still. Past two deadlines nobody waits for what the handler does; what it has not
 * written by then is the crash case (its writes are conditional, the request is redelivered
 * past its deadline and skipped).
 */
export function handlerDrainMs(rpcTimeoutMs: number): number {
  return 2 * rpcTimeoutMs;
}

/**
 * How long a process takes at most to drain on SIGTERM (docs/guide/operator.md, Stopping and
 * draining), in its stop order: a gateway's DRAIN_DELAY_MS (its `/readyz` says 503 while it still
 * serves, so a load balancer stops sending) and its requests in flight (each waits at most one
 * RPC deadline); then the domain services' handlers running (`handlerDrainMs`); then a few
 * seconds for the rest. The Helm chart's terminationGracePeriodSeconds counts the same way.
 */
export function drainBoundMs(options: { rpcTimeoutMs: number; drainDelayMs: number; gateway: boolean; domain: boolean }): number {
  const front = options.gateway ? options.drainDelayMs + options.rpcTimeoutMs : 0;
  const handlers = options.domain ? handlerDrainMs(options.rpcTimeoutMs) : 0;
  return front + handlers + DRAIN_SLACK_MS;
}

/**
 * Stops everything on SIGINT/SIGTERM, last started first, writes out the buffered log lines,
 * then exits. Work that has not finished `LEASE_RELEASE_MARGIN_MS` before `boundMs` has its
 * leases given back (`releaseHeldLeases`), so another replica takes it over at once; at
 * `boundMs` the process exits whatever still runs. A second signal exits at once (pino's exit
 * hook still writes the buffer synchronously then).
 */
export function stopOnSignals(parts: Stoppable[], logger: Logger, boundMs = 10_000): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal, boundMs }, "draining");
    const giveBack = setTimeout(
      () => void releaseHeldLeases().then((n) => n > 0 && logger.warn({ leases: n }, "drain running out of time: gave back the leases of unfinished work")),
      Math.max(0, boundMs - LEASE_RELEASE_MARGIN_MS),
    );
    const timer = setTimeout(() => {
      logger.error("stop timed out; exiting");
      process.exit(1);
    }, boundMs);
    giveBack.unref();
    timer.unref();
    await stopAll(parts, logger);
    clearTimeout(giveBack);
    logger.info("stopped");
    await flushLogger(logger);
    process.exit(0);
  };
  // `on`, not `once`: the second signal comes here too, and exits through process.exit (with
  // the log's exit hook) rather than by the signal's default action.
  process.on("SIGINT", (s) => void shutdown(s));
  process.on("SIGTERM", (s) => void shutdown(s));
}

export async function stopAll(parts: Stoppable[], logger: Logger): Promise<void> {
  for (const part of [...parts].reverse()) {
    try {
      await part.stop();
    } catch (err) {
      logger.error({ err, part: part.name }, "stop failed");
    }
  }
}
