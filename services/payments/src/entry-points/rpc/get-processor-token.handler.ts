import { getProcessorTokenOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getProcessorToken } from "../../domain/transfers/get-processor-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getProcessorTokenHandler = (deps: PaymentsDeps) =>
  handle(getProcessorTokenOp, (payload, ctx) => getProcessorToken(deps, ctx, requireMerchantWriter(ctx.principal), payload.checkout_id));
