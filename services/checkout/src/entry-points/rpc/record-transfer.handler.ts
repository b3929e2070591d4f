import { recordTransferOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { recordTransfer } from "../../domain/record-transfer.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: payments calls it once the transfer exists at the provider.
export const recordTransferHandler = (deps: CheckoutDeps) =>
  handle(recordTransferOp, (payload, ctx) => {
    requireService(ctx.principal);
    return recordTransfer(deps, payload.checkout_id, payload.transfer);
  });
