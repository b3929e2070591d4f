import { reconcileOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { reconcile } from "../../domain/reconciliation/reconcile.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const reconcileHandler = (deps: PaymentsDeps) =>
  handle(reconcileOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return reconcile(deps, { afterMs: payload.after_ms ?? deps.reconcileAfterMs, leaseMs: deps.reconcileLeaseMs });
  });
