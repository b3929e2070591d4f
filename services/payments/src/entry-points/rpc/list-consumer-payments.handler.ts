import { listConsumerPaymentsOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listConsumerPayments } from "../../domain/transactions/list-consumer-payments.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const listConsumerPaymentsHandler = (deps: PaymentsDeps) =>
  handle(listConsumerPaymentsOp, (payload, ctx) => listConsumerPayments(deps, ctx, requireUser(ctx.principal), payload));
