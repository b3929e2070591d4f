import { recordTransferStatusOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { recordTransferStatus } from "../../domain/record-transfer-status.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: payments calls it when the provider reports the transfer's final status.
export const recordTransferStatusHandler = (deps: CheckoutDeps) =>
  handle(recordTransferStatusOp, (payload, ctx) => {
    requireService(ctx.principal);
    return recordTransferStatus(deps, payload);
  });
