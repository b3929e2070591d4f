import { SubscriptionDetailsQuery, SubscriptionDetailsResponse } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Get Subscription Details (spec 9): the calling consumer's transaction records, newest first. */
export const listTransactionsOp = defineOperation(
  "payments.listTransactions",
  SubscriptionDetailsQuery,
  SubscriptionDetailsResponse,
);
