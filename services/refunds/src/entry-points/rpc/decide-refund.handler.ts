import { decideRefundOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { decideRefund } from "../../domain/decide-refund.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

// A merchant's api-key or an operator's auth token: the use case checks which may act.
export const decideRefundHandler = (deps: RefundsDeps) => handle(decideRefundOp, (payload, ctx) => decideRefund(deps, ctx, payload));
