import { SubscriptionMandate } from "../../http/consumer-portal.schema.ts";
import { SubscriptionCancelBody } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * The mandate a consumer's own subscription draws on, with its words (the portal). Another
 * consumer's record is 404 `transaction_not_found`; a subscription without a mandate yet, 404
 * `mandate_not_found`.
 */
export const getSubscriptionMandateOp = defineOperation("payments.getSubscriptionMandate", SubscriptionCancelBody, SubscriptionMandate);
