import { createRelinkTokenOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createRelinkToken } from "../../domain/bank-accounts/create-relink-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const createRelinkTokenHandler = (deps: PaymentsDeps) =>
  handle(createRelinkTokenOp, (payload, ctx) => createRelinkToken(deps, ctx, requireUser(ctx.principal), payload));
