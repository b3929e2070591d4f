import { requireMerchantWriter, simulateRefundPayoutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { simulateRefundPayout } from "../../domain/simulate-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const simulateRefundPayoutHandler = (deps: PaymentsDeps) =>
  handle(simulateRefundPayoutOp, (payload, ctx) => simulateRefundPayout(deps, ctx, requireMerchantWriter(ctx.principal), payload));
