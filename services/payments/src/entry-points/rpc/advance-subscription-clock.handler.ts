import { advanceSubscriptionClockOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { advanceSubscriptionClock } from "../../domain/advance-subscription-clock.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const advanceSubscriptionClockHandler = (deps: PaymentsDeps) =>
  handle(advanceSubscriptionClockOp, (payload, ctx) => advanceSubscriptionClock(deps, requireMerchant(ctx.principal), payload));
