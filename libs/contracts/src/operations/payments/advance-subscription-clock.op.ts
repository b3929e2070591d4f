import { z } from "zod";
import { TransactionRecord } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The test clock's body (docs/api-notes.md, Subscriptions and renewals): the time the subscription's clock moves to. */
export const AdvanceSubscriptionClockBody = z.object({ to: z.iso.datetime({ offset: true }) });
export type AdvanceSubscriptionClockBody = z.infer<typeof AdvanceSubscriptionClockBody>;

/**
 * Sandbox only (docs/api-notes.md, Subscriptions and renewals): moves one subscription's test clock forward to `to`
 * (never back) and runs every renewal charge and retry due by then, for the merchant's own
 * subscription named by any of its records. Answers the subscription's records, newest first.
 */
export const advanceSubscriptionClockOp = defineOperation(
  "payments.advanceSubscriptionClock",
  AdvanceSubscriptionClockBody.extend({ transaction_uuid: z.string().min(1).max(64) }),
  z.array(TransactionRecord),
);
