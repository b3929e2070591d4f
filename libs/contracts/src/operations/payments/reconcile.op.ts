import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** One thing a reconcile pass brought to the provider's status. */
export const ReconcileChange = z.object({
  kind: z.enum(["transaction", "payout", "attempt"]).describe("What changed: a transaction record, a payout (a refund's `rfd_…` or a merchant's `po_…`), or a charge attempt stopped half-way"),
  /** transaction_uuid, payout id, or checkout id (an attempt). */
  id: z.string().describe("The transaction_uuid, the payout's id (`rfd_…` or `po_…`), or the checkout id of an attempt"),
  from: z.string().describe("Its status before the pass"),
  to: z.string().describe("Its status after the pass (the provider's)"),
});
export type ReconcileChange = z.infer<typeof ReconcileChange>;

export const ReconcileReport = z.object({
  /** Another replica's pass was running: this one did nothing. */
  busy: z.boolean().describe("Another pass was running: this one did nothing"),
  checked: z.number().int().describe("How many pending items were looked up at the provider"),
  /** Items that could not be looked up or applied (logged); the next pass tries them again. */
  errors: z.number().int().describe("Items that could not be looked up or applied (logged); the next pass tries them again"),
  changes: z.array(ReconcileChange).describe("What the pass changed, one entry each"),
});
export type ReconcileReport = z.infer<typeof ReconcileReport>;

/**
 * Admin (`payrail reconcile`): one reconciler pass now (docs/api-notes.md, Convergence with the provider), for what has been pending
 * longer than `after_ms` (default: the service's RECONCILE_AFTER). Answers what changed.
 */
export const reconcileOp = defineOperation(
  "payments.reconcile",
  z.object({
    after_ms: z
      .number()
      .int()
      .min(0)
      .max(400 * 86_400_000)
      .optional()
      .describe("Look at what has been pending longer than this many milliseconds (default: RECONCILE_AFTER)"),
  }),
  ReconcileReport,
);
