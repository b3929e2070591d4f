import { getPaymentStatsOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getPaymentStats } from "../../domain/payment-stats/get-payment-stats.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getPaymentStatsHandler = (deps: PaymentsDeps) =>
  handle(getPaymentStatsOp, (_payload, ctx) => getPaymentStats(deps, requireMerchant(ctx.principal).merchantId));
