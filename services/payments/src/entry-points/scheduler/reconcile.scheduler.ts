import type { PaymentsDeps } from "../rpc/deps.ts";
import { reconcile } from "../../domain/reconciliation/reconcile.use-case.ts";
import { every } from "@payrail/runtime";

/**
 * The reconciler's clock on one payments instance: every `everyMs` it tries a pass, and the
 * pass's job lease lets one replica at a time run it (the others find it busy). The first try
 * comes one period after the start, so a fleet restarting together does not all ask at once.
 */
export function startReconcileScheduler(deps: PaymentsDeps, everyMs: number): { stop(): Promise<void> } {
  return every(everyMs, () => reconcile(deps, { afterMs: deps.reconcileAfterMs, leaseMs: deps.reconcileLeaseMs }), deps.logger, "reconcile pass");
}
