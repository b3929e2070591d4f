import { requireService, startRefundTransferOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { SharedCalls } from "@payrail/runtime";
import { startRefundTransfer, type StartedPayout } from "../../domain/refund-payouts/start-refund-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Internal: only the refunds service, after its own checks of who may pay a refund out.
export const startRefundTransferHandler = (deps: PaymentsDeps) => {
  // Identical asks for one payout while one is in flight here (a merchant's repeated Initiate
  // Refund Transfer) wait for it rather than each reserving, inserting and asking the provider
  // again to find the same transfer; replicas stay safe by the payout's idempotency.
  const shared = new SharedCalls<StartedPayout>();
  return handle(startRefundTransferOp, (payload, ctx) => {
    requireService(ctx.principal);
    return shared.run(JSON.stringify(payload), () => startRefundTransfer(deps, ctx, payload));
  });
};
