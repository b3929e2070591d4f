import type { Logger } from "@payrail/runtime";

/**
 * Runs `pass` every `everyMs` on this instance, one pass at a time (a slow pass is not started
 * again before it ended), its failures logged as `what` failed and left to the next pass. The
 * timer does not keep the process alive; `stop` waits for a running pass.
 */
export function every(everyMs: number, pass: () => Promise<unknown>, logger: Logger, what: string): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= pass()
      .catch((err: unknown) => logger.error({ err }, `${what} failed; the next one tries again`))
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
