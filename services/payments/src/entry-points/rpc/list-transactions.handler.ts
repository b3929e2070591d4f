import { listTransactionsOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listTransactions } from "../../domain/transactions/list-transactions.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const listTransactionsHandler = (deps: PaymentsDeps) =>
  handle(listTransactionsOp, (payload, ctx) => listTransactions(deps, requireUser(ctx.principal), payload));
