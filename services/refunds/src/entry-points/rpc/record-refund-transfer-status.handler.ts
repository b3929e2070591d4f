import { recordRefundTransferStatusOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { recordRefundTransferStatus } from "../../domain/record-refund-transfer-status.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

// Internal: payments calls it when the provider reports the refund transfer's final status.
export const recordRefundTransferStatusHandler = (deps: RefundsDeps) =>
  handle(recordRefundTransferStatusOp, (payload, ctx) => {
    requireService(ctx.principal);
    return recordRefundTransferStatus(deps, ctx, payload);
  });
