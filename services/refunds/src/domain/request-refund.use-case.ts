import { AppError, type UserPrincipal } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { claimTransaction } from "./claim-transaction.ts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { toRefundRecord, type RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

export const REFUND_REQUESTED = "Refund request sent";
const REFUNDABLE = new Set(["pending", "completed"]);

/**
 * Consumer Refund Request: the consumer's own transaction (asked of payments as the consumer,
 * so another's is a 404), `pending` or `completed`, for its full amount. The claim on the
 * transaction is taken before the record is written, so of racing requests one gets a refund
 * and the rest 409 `refund_exists`.
 */
export async function requestRefund(
  deps: RefundsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { transaction_uuid: string; reason?: string | undefined },
) {
  const transaction = await deps.payments.getTransaction({ ...meta, principal: user }, input.transaction_uuid);
  if (!REFUNDABLE.has(transaction.transaction_status)) {
    throw new AppError("transaction_not_refundable", `transaction ${transaction.transaction_uuid} is ${transaction.transaction_status}`, {
      param: "transaction_uuid",
    });
  }
  const now = deps.now().toISOString();
  const doc: RefundDoc = {
    _id: prefixedHexId("rfd_"),
    transactionUuid: transaction.transaction_uuid,
    checkoutRef: transaction.checkout_ref,
    checkoutNumber: transaction.checkout_number,
    merchantId: transaction.merchant_id,
    userId: user.userId,
    amountCents: transaction.amount_cents,
    currency: transaction.currency,
    status: "pending",
    reason: input.reason ?? null,
    refundTransactionId: null,
    failureCode: null,
    createdAt: now,
    updatedAt: now,
  };
  await claimTransaction(deps, { _id: doc.transactionUuid, refundId: doc._id, claimedAt: now });
  try {
    await deps.refunds.insert(doc);
  } catch (err) {
    // Give the claim back so the consumer can ask again (a crash here is healed by claimTransaction).
    await deps.claims.release(doc.transactionUuid, doc._id).catch(() => undefined);
    throw err;
  }
  deps.logger.info({ requestId: meta.requestId, refundId: doc._id, transactionUuid: doc.transactionUuid }, "refund requested");
  return { message: REFUND_REQUESTED, refund: toRefundRecord(doc) };
}
