import { listMerchantTransactionsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listMerchantTransactions } from "../../domain/transactions/list-merchant-transactions.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const listMerchantTransactionsHandler = (deps: PaymentsDeps) => handle(listMerchantTransactionsOp, (payload, ctx) => listMerchantTransactions(deps, ctx.principal, payload));
