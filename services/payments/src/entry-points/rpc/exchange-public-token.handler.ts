import { exchangePublicTokenOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { exchangePublicToken } from "../../domain/bank-accounts/exchange-public-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const exchangePublicTokenHandler = (deps: PaymentsDeps) =>
  handle(exchangePublicTokenOp, (payload, ctx) => exchangePublicToken(deps, ctx, requireUser(ctx.principal), payload));
