import { requireMerchantWriter, simulateRefundTransferOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { simulateRefundTransfer } from "../../domain/simulate-refund-transfer.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

export const simulateRefundTransferHandler = (deps: RefundsDeps) =>
  handle(simulateRefundTransferOp, (payload, ctx) => simulateRefundTransfer(deps, ctx, requireMerchantWriter(ctx.principal), payload));
