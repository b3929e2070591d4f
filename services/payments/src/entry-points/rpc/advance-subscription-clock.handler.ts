import { advanceSubscriptionClockOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { advanceSubscriptionClock } from "../../domain/renewals/advance-subscription-clock.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const advanceSubscriptionClockHandler = (deps: PaymentsDeps) =>
  handle(advanceSubscriptionClockOp, (payload, ctx) => advanceSubscriptionClock(deps, requireMerchantWriter(ctx.principal), payload));
