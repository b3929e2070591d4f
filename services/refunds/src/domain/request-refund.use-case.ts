import { AppError, centsToDecimal, toCents, type DecimalAmount, type UserPrincipal } from "@payrail/contracts";
import { prefixedHexId, runScopedHexId } from "@payrail/runtime";
import type { RequestMeta } from "./ports/payments.port.ts";
import { refundEvent } from "./refund-events.ts";
import { toRefundRecord, type RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import { ownTransaction } from "./own-transaction.ts";
import { reserveRefundAmount } from "./reserve-refund-amount.ts";

export const REFUND_REQUESTED = "Refund request sent";
const REFUNDABLE = new Set(["pending", "completed"]);

/**
 * Consumer Refund Request: the consumer's own transaction (another's is a 404), `pending` or
 * `completed`, for `amount` or whatever of it is still refundable. The amount is held on the transaction's ledger (one conditional write) before
 * the record is written, so racing requests never together ask for more than the transaction.
 * The refund's id derives from the call's run id: a second run of the same call (its first
 * runner stalled past its lease) takes the same hold and meets the first's record, so one
 * request is one refund.
 */
export async function requestRefund(
  deps: RefundsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { transaction_uuid: string; reason?: string | undefined; amount?: DecimalAmount | undefined },
  runId?: string,
) {
  const transaction = await ownTransaction(deps, meta, user, input.transaction_uuid);
  if (transaction.transaction_status === "returned") {
    throw new AppError("transaction_returned", `transaction ${transaction.transaction_uuid} was returned by the bank after it settled`, { param: "transaction_uuid" });
  }
  if (!REFUNDABLE.has(transaction.transaction_status)) {
    throw new AppError("transaction_not_refundable", `transaction ${transaction.transaction_uuid} is ${transaction.transaction_status}`, {
      param: "transaction_uuid",
    });
  }
  const now = deps.now().toISOString();
  const refundId = runId === undefined ? prefixedHexId("rfd_") : runScopedHexId("rfd_", `refund\n${user.userId}\n${runId}`);
  const reservation = await reserveRefundAmount(deps, {
    transactionUuid: transaction.transaction_uuid,
    transactionCents: transaction.amount_cents,
    refundId,
    attempt: 1,
    // The schema let only a decimal through, which toCents reads.
    cents: input.amount === undefined ? null : toCents(input.amount),
    at: now,
  });
  if ("remaining" in reservation) throw notRefundable(transaction.transaction_uuid, reservation.remaining, input.amount !== undefined);
  const doc: RefundDoc = {
    _id: refundId,
    transactionUuid: transaction.transaction_uuid,
    checkoutRef: transaction.checkout_ref,
    checkoutNumber: transaction.checkout_number,
    merchantId: transaction.merchant_id,
    userId: user.userId,
    amountCents: reservation.reserved,
    currency: transaction.currency,
    status: "pending",
    reason: input.reason ?? null,
    attempt: 1,
    refundTransactionId: null,
    failureCode: null,
    failureReason: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  try {
    const { inserted, doc: stored } = await deps.refunds.insert(doc, refundEvent(doc, deps.livemode));
    if (!inserted) return { message: REFUND_REQUESTED, refund: toRefundRecord(stored) };
  } catch (err) {
    // Give the amount back so the consumer can ask again (a crash here is healed by the next request).
    await deps.ledgers.release(doc.transactionUuid, doc._id, doc.attempt, doc.amountCents).catch(() => undefined);
    throw err;
  }
  deps.events.written();
  deps.logger.info({ requestId: meta.requestId, refundId: doc._id, transactionUuid: doc.transactionUuid }, "refund requested");
  return { message: REFUND_REQUESTED, refund: toRefundRecord(doc) };
}

function notRefundable(transactionUuid: string, remainingCents: number, amountSent: boolean): AppError {
  if (amountSent) {
    return new AppError("amount_exceeds_refundable", `only ${centsToDecimal(remainingCents)} of transaction ${transactionUuid} is still refundable`, {
      param: "amount",
    });
  }
  // Without an amount only nothing left fails: what a second full refund always met (the code docs/api-notes.md, Refunds names).
  return new AppError("refund_exists", `the refunds of transaction ${transactionUuid} already cover its whole amount`, { param: "transaction_uuid" });
}
