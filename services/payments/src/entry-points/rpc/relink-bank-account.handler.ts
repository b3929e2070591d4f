import { relinkBankAccountOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { relinkBankAccount } from "../../domain/bank-accounts/relink-bank-account.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const relinkBankAccountHandler = (deps: PaymentsDeps) =>
  handle(relinkBankAccountOp, (payload, ctx) => relinkBankAccount(deps, ctx, requireUser(ctx.principal), payload));
