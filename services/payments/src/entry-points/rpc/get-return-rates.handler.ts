import { getReturnRatesOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getReturnRates } from "../../domain/returns/get-return-rates.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getReturnRatesHandler = (deps: PaymentsDeps) =>
  handle(getReturnRatesOp, (_payload, ctx) => getReturnRates(deps, requireMerchant(ctx.principal).merchantId));
