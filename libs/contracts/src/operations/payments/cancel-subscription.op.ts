import { MessageResponse } from "../../http/consumer.schema.ts";
import { SubscriptionCancelBody } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Subscription Cancel (spec 10): the consumer's own record of a subscription checkout. */
export const cancelSubscriptionByTransactionOp = defineOperation(
  "payments.cancelSubscription",
  SubscriptionCancelBody,
  MessageResponse,
);
