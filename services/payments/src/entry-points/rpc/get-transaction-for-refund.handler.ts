import { getTransactionForRefundOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getTransactionForRefund } from "../../domain/transactions/get-transaction-for-refund.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Internal (refunds asks, as the consumer or on its own account); the use case checks who.
export const getTransactionForRefundHandler = (deps: PaymentsDeps) =>
  handle(getTransactionForRefundOp, (payload, ctx) => getTransactionForRefund(deps, ctx.principal, payload.transaction_uuid));
