import { ConsumerListQuery, ConsumerPaymentList } from "../../http/consumer-portal.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling consumer's transaction records across merchants, newest first, with each merchant's name (the portal). */
export const listConsumerPaymentsOp = defineOperation("payments.listConsumerPayments", ConsumerListQuery, ConsumerPaymentList);
