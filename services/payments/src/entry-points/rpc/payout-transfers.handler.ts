import { createPayoutOp, requireMerchantWriter, requireService, simulatePayoutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createPayout } from "../../domain/merchant-payouts/create-payout.use-case.ts";
import { simulatePayout } from "../../domain/transfers/simulate-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Internal: only the ledger, which made the payout from the merchant's available balance.
export const createPayoutHandler = (deps: PaymentsDeps) =>
  handle(createPayoutOp, (payload, ctx) => {
    requireService(ctx.principal);
    return createPayout(deps, ctx, payload);
  });

export const simulatePayoutHandler = (deps: PaymentsDeps) =>
  handle(simulatePayoutOp, (payload, ctx) => simulatePayout(deps, ctx, requireMerchantWriter(ctx.principal), payload));
