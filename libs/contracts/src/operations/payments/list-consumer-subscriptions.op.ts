import { ConsumerListQuery, ConsumerSubscriptionList } from "../../http/consumer-portal.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling consumer's subscriptions across merchants, newest first (`GET /api/consumers/subscriptions`). */
export const listConsumerSubscriptionsOp = defineOperation("payments.listConsumerSubscriptions", ConsumerListQuery, ConsumerSubscriptionList);
