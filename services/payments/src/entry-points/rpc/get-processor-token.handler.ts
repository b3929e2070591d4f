import { getProcessorTokenOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getProcessorToken } from "../../domain/transfers/get-processor-token.use-case.ts";
import { transferInProgress } from "../../domain/transfers/run-under-transfer-lease.ts";
import { answerBeforeDeadline } from "./answer-before-deadline.ts";
import type { PaymentsDeps } from "./deps.ts";

// Runs once by itself: every run for a checkout meets on its one attempt, whose lease lets one
// run work and whose steps are recorded with their idempotency keys; a repeat of the call is
// answered from it (the result, or 409 while the first run still works). The reply ledger's
// claim and reply would be two more writes for each transfer.
// A run that would outlast its caller's deadline (a store or provider slowed by a burst) answers
// 409 transfer_in_progress before it, as a repeat would, and goes on under its lease: the caller
// retries and finds the result, where it would otherwise have had a timeout and no answer.
export const getProcessorTokenHandler = (deps: PaymentsDeps) =>
  handle(
    getProcessorTokenOp,
    (payload, ctx) =>
      answerBeforeDeadline(
        getProcessorToken(deps, ctx, requireMerchantWriter(ctx.principal), payload.checkout_id),
        ctx.deadline,
        () => transferInProgress(payload.checkout_id),
        (err) => deps.logger.warn({ err, requestId: ctx.requestId, checkoutId: payload.checkout_id }, "a transfer answered 409 before its caller's deadline failed afterwards; the next call resumes it"),
      ),
    { runsOnceItself: true },
  );
