import { AppError, refuseViewer, centsToDecimal, type DomainEvent } from "@payrail/contracts";
import { auditEvents } from "@payrail/runtime";
import { moveRefund } from "./move-refund.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { refundForMerchant } from "./refund-for-merchant.ts";
import { initiateOutcome } from "./refund-state.ts";
import { toRefundRecord, type RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import { reserveRefundAmount } from "./reserve-refund-amount.ts";
import { settleRefund } from "./settle-refund.ts";
import { TRANSACTION_RETURNED } from "./stop-returned-refunds.use-case.ts";

export const REFUND_SUCCESS = "Refund success";

/**
 * Initiate Refund Transfer: `approved` (or `failed`: a new payout attempt, once the refund's
 * amount is held again) → `processing` in one conditional write, then the payout is asked of
 * payments, then its provider id is recorded. The order makes every failure resumable without
 * paying twice: payments' payout is idempotent per refund and attempt, so a refund found
 * `processing` without a transfer id (a call died in between, or is still on its way) is
 * finished by asking again. Calls that find the transfer started answer the same. The move to
 * `processing` carries the audit entry (`refund.payout_initiated`), so a repeat records none.
 */
export async function initiateRefundTransfer(deps: RefundsDeps, meta: RequestMeta, input: { id: string }) {
  refuseViewer(meta.principal);
  let refund = await refundForMerchant(deps, meta, input.id);
  const first = initiateOutcome(refund);
  if (first === "start" || first === "retry") {
    // Money that has not arrived cannot be sent back.
    const transaction = await deps.payments.getTransaction(meta, refund.transactionUuid);
    if (transaction.transaction_status === "returned") throw returned(refund.transactionUuid);
    if (transaction.transaction_status !== "completed") {
      throw new AppError("transaction_not_settled", `transaction ${refund.transactionUuid} is ${transaction.transaction_status}, not completed`);
    }
    const at = now(deps);
    // A consumer token got this far only as one of the merchant's operators (refundForMerchant).
    const change = { service: "refunds", merchantId: refund.merchantId, action: "refund.payout_initiated", object: { type: "refund", id: refund._id }, at, livemode: deps.livemode, userIsOperator: true } as const;
    const audit = auditEvents(meta, change);
    const moved = first === "start" ? await moveRefund(deps, refund, "processing", {}, at, audit) : await retry(deps, refund, transaction.amount_cents, at, audit);
    refund = moved ?? (await reread(deps, refund));
  }
  const outcome = initiateOutcome(refund);
  if (outcome !== "resume" && outcome !== "done") {
    throw new AppError("invalid_refund_transition", `refund ${refund._id} is ${refund.status}; only an approved or failed refund can be paid out`, {
      param: "id",
    });
  }
  if (outcome === "resume") {
    // Calls that find the same payout to start (a burst of initiates) share the one on its way here.
    const resuming = refund;
    refund = await deps.payoutCalls.run(`${resuming._id}/${resuming.attempt}`, () => startPayout(deps, meta, resuming));
  }
  return { message: REFUND_SUCCESS, refund: toRefundRecord(refund) };
}

/**
 * A failed refund's next payout attempt: its amount is held again first (if the consumer's
 * later requests took it meanwhile, 409 and the refund stays failed), then the refund moves
 * `failed` → `processing` on the new attempt, its last failure cleared.
 */
async function retry(deps: RefundsDeps, refund: RefundDoc, transactionCents: number, at: string, audit: readonly DomainEvent[]): Promise<RefundDoc | null> {
  const attempt = refund.attempt + 1;
  const reservation = await reserveRefundAmount(deps, {
    transactionUuid: refund.transactionUuid,
    transactionCents,
    refundId: refund._id,
    attempt,
    cents: refund.amountCents,
    at: now(deps),
  });
  if ("remaining" in reservation) {
    const remaining = centsToDecimal(reservation.remaining);
    throw new AppError("amount_exceeds_refundable", `refund ${refund._id} no longer fits: only ${remaining} of its transaction is still refundable`, {
      param: "id",
    });
  }
  const cleared = { attempt, refundTransactionId: null, failureCode: null, failureReason: null };
  return moveRefund(deps, refund, "processing", cleared, at, audit);
}

/**
 * Asks payments for the refund's current payout and records its transfer id. A payout the
 * provider refused for good fails the refund (its amount is given back) and answers 502 with
 * the provider's code: initiating again starts a new payout.
 */
async function startPayout(deps: RefundsDeps, meta: RequestMeta, refund: RefundDoc): Promise<RefundDoc> {
  const payout = await deps.payments
    .startRefundTransfer(meta, {
      refundId: refund._id,
      attempt: refund.attempt,
      transactionUuid: refund.transactionUuid,
      amountCents: refund.amountCents,
      currency: refund.currency,
    })
    .catch(async (err: unknown) => {
      // Returned by the bank between our check and payments' (which refuses in the same write
      // that would count the payout): nothing was sent, and nothing ever will be.
      if (err instanceof AppError && err.code === "transaction_returned") {
        const failure = { failureCode: TRANSACTION_RETURNED, failureReason: err.message };
        await settleRefund(deps, meta, { refundId: refund._id, attempt: refund.attempt, transferId: null, status: "failed", ...failure });
      }
      throw err;
    });
  if (payout.status === "failed") {
    const failure = { failureCode: payout.failureCode, failureReason: payout.failureReason };
    await settleRefund(deps, meta, { refundId: refund._id, attempt: refund.attempt, transferId: null, status: "failed", ...failure });
    throw new AppError("provider_error", `the refund's transfer was refused (${payout.failureReason}); the refund failed and may be initiated again`, {
      providerCode: payout.failureCode,
    });
  }
  const recorded = await deps.refunds.recordTransferId(refund._id, refund.attempt, payout.transferId, now(deps));
  if (recorded) deps.logger.info({ requestId: meta.requestId, refundId: refund._id, attempt: refund.attempt }, "refund transfer recorded");
  return recorded ?? (await reread(deps, refund));
}

const now = (deps: RefundsDeps) => deps.now().toISOString();

function returned(transactionUuid: string): AppError {
  return new AppError("transaction_returned", `transaction ${transactionUuid} was returned by the bank after it settled; it cannot be refunded`, { param: "id" });
}

async function reread(deps: RefundsDeps, refund: RefundDoc): Promise<RefundDoc> {
  return (await deps.refunds.find(refund._id)) ?? refund;
}
