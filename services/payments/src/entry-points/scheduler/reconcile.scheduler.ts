import type { PaymentsDeps } from "../rpc/deps.ts";
import { reconcile } from "../../domain/reconcile.use-case.ts";

/**
 * The reconciler's clock on one payments instance: every `everyMs` it tries a pass, and the
 * pass's job lease lets one replica at a time run it (the others find it busy). The first try
 * comes one period after the start, so a fleet restarting together does not all ask at once.
 */
export function startReconcileScheduler(deps: PaymentsDeps, everyMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= reconcile(deps, { afterMs: deps.reconcileAfterMs, leaseMs: deps.reconcileLeaseMs })
      .catch((err: unknown) => deps.logger.error({ err }, "reconcile pass failed; the next one tries again"))
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
