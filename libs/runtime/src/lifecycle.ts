import type { Logger } from "pino";
import { flushLogger } from "./logger.ts";

/** Something started that must be stopped, in reverse order of starting. */
export interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * Stops everything on SIGINT/SIGTERM, last started first, writes out the buffered log lines,
 * then exits. A second signal, or a stop that hangs past `graceMs`, exits at once (pino's exit
 * hook still writes the buffer synchronously then).
 */
export function stopOnSignals(parts: Stoppable[], logger: Logger, graceMs = 10_000): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "stopping");
    const timer = setTimeout(() => {
      logger.error("stop timed out; exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    await stopAll(parts, logger);
    logger.info("stopped");
    await flushLogger(logger);
    process.exit(0);
  };
  process.once("SIGINT", (s) => void shutdown(s));
  process.once("SIGTERM", (s) => void shutdown(s));
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
