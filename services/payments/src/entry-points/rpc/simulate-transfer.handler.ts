import { requireMerchantWriter, simulateTransferOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { simulateTransfer } from "../../domain/transfers/simulate-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const simulateTransferHandler = (deps: PaymentsDeps) =>
  handle(simulateTransferOp, (payload, ctx) => simulateTransfer(deps, ctx, requireMerchantWriter(ctx.principal), payload));
