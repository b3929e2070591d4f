import { z } from "zod";
import { DecimalAmount, toCents } from "../../http/money.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Update Subscription's body: the new amount of each renewal (strict, as every amount; above 0). */
export const UpdateSubscriptionBody = z.strictObject({
  amount: DecimalAmount.refine((v) => toCents(v)! > 0, { message: "must be greater than 0", params: { code: "amount_invalid" } }),
});
export type UpdateSubscriptionBody = z.infer<typeof UpdateSubscriptionBody>;

export const UpdateSubscriptionResult = z.object({
  checkout_id: z.string(),
  /** As the merchant sent it. */
  amount: z.union([z.number(), z.string()]),
  /** What the renewals before `amount_effective_at` are charged. */
  previous_amount: z.string(),
  /** The first renewal charged the new amount: the first at least 10 days after the change. */
  amount_effective_at: z.string(),
  subscription_status: z.string(),
});
export type UpdateSubscriptionResult = z.infer<typeof UpdateSubscriptionResult>;

/**
 * A merchant changes the amount of one of its subscriptions, named by its checkout
 * (docs/decisions/0009-consumer-notices.md): one conditional write with `subscription.updated`.
 * The new amount applies from the first renewal at least 10 days away, so the consumer's 10-day
 * notice (Reg E 1005.10(d)) can always be given. Another merchant's checkout, or one never paid,
 * is 404 `checkout_not_found`; a one-off payment 409 `not_a_subscription`; a cancelled one 409
 * `subscription_cancelled`; one whose first charge has not settled 409 `transaction_not_settled`.
 */
export const updateSubscriptionOp = defineOperation(
  "payments.updateSubscription",
  z.object({ checkout_id: z.string().min(1).max(64) }).extend(UpdateSubscriptionBody.shape),
  UpdateSubscriptionResult,
);
