import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** One thing a reconcile pass brought to the provider's status. */
export const ReconcileChange = z.object({
  kind: z.enum(["transaction", "payout", "attempt"]),
  /** transaction_uuid, payout id, or checkout id (an attempt). */
  id: z.string(),
  from: z.string(),
  to: z.string(),
});
export type ReconcileChange = z.infer<typeof ReconcileChange>;

export const ReconcileReport = z.object({
  /** Another replica's pass was running: this one did nothing. */
  busy: z.boolean(),
  checked: z.number().int(),
  /** Items that could not be looked up or applied (logged); the next pass tries them again. */
  errors: z.number().int(),
  changes: z.array(ReconcileChange),
});
export type ReconcileReport = z.infer<typeof ReconcileReport>;

/**
 * Admin (`payrail reconcile`): one reconciler pass now (docs/api-notes.md, Convergence with the provider), for what has been pending
 * longer than `after_ms` (default: the service's RECONCILE_AFTER). Answers what changed.
 */
export const reconcileOp = defineOperation(
  "payments.reconcile",
  z.object({ after_ms: z.number().int().min(0).max(400 * 86_400_000).optional() }),
  ReconcileReport,
);
