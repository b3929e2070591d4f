import { createLinkTokenOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createLinkToken } from "../../domain/bank-accounts/create-link-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const createLinkTokenHandler = (deps: PaymentsDeps) =>
  handle(createLinkTokenOp, (payload, ctx) => createLinkToken(deps, ctx, requireUser(ctx.principal), payload));
