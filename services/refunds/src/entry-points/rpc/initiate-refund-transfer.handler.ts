import { initiateRefundTransferOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { initiateRefundTransfer } from "../../domain/initiate-refund-transfer.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

// A merchant's api-key or an operator's auth token: the use case checks which may act.
export const initiateRefundTransferHandler = (deps: RefundsDeps) =>
  handle(initiateRefundTransferOp, (payload, ctx) => initiateRefundTransfer(deps, ctx, payload));
