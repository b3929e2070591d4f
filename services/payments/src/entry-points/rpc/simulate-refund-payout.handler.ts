import { requireService, simulateRefundPayoutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { simulateRefundPayout } from "../../domain/transfers/simulate-transfer.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Asked by refunds (which checked the merchant's writer key) for the merchant the payload names.
// The payload's `audit` (the merchant's actor and address) is believed as that merchant is:
// only refunds' broker users may send this operation (`SERVICE_CALLS`, docs/decisions/0054-audit-log.md).
export const simulateRefundPayoutHandler = (deps: PaymentsDeps) =>
  handle(simulateRefundPayoutOp, (payload, ctx) => {
    requireService(ctx.principal);
    return simulateRefundPayout(deps, ctx, payload.merchant_id, payload);
  });
