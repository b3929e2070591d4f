import { requestRefundOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { requestRefund } from "../../domain/request-refund.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

export const requestRefundHandler = (deps: RefundsDeps) =>
  handle(requestRefundOp, (payload, ctx) => requestRefund(deps, ctx, requireUser(ctx.principal), payload, ctx.callId));
