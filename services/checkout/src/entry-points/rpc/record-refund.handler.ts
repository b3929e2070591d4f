import { recordRefundOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { recordRefund } from "../../domain/record-refund.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: payments calls it when a refund transfer of one of the checkout's transactions completed.
export const recordRefundHandler = (deps: CheckoutDeps) =>
  handle(recordRefundOp, (payload, ctx) => {
    requireService(ctx.principal);
    return recordRefund(deps, payload);
  });
