import { getProcessorTokenOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getProcessorToken } from "../../domain/transfers/get-processor-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Runs once by itself: every run for a checkout meets on its one attempt, whose lease lets one
// run work and whose steps are recorded with their idempotency keys; a repeat of the call is
// answered from it (the result, or 409 while the first run still works). The reply ledger's
// claim and reply would be two more writes for each transfer.
export const getProcessorTokenHandler = (deps: PaymentsDeps) =>
  handle(getProcessorTokenOp, (payload, ctx) => getProcessorToken(deps, ctx, requireMerchantWriter(ctx.principal), payload.checkout_id), { runsOnceItself: true });
