import type { Logger } from "./logger.ts";

/**
 * Runs `pass` every `everyMs` on this instance, one pass at a time (a slow pass is not started
 * again before it ended), its failures logged as `what` failed and left to the next pass. The
 * timer does not keep the process alive; `stop` waits for a running pass, which `stopping` tells
 * to end after the item it is on (a draining process takes no more work).
 */
export function every(everyMs: number, pass: (stopping: () => boolean) => Promise<unknown>, logger: Logger, what: string): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const stopping = () => stopped;
  const timer = setInterval(() => {
    running ??= pass(stopping)
      .catch((err: unknown) => logger.error({ err }, `${what} failed; the next one tries again`))
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
