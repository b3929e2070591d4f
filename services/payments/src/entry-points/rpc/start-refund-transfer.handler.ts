import { requireService, startRefundTransferOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { startRefundTransfer } from "../../domain/refund-payouts/start-refund-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Internal: only the refunds service, after its own checks of who may pay a refund out.
export const startRefundTransferHandler = (deps: PaymentsDeps) =>
  handle(startRefundTransferOp, (payload, ctx) => {
    requireService(ctx.principal);
    return startRefundTransfer(deps, ctx, payload);
  });
