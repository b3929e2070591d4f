import { AppError, reachesMerchant, type Principal, type RefundableTransaction } from "@payrail/contracts";
import type { TransactionsPort } from "./ports/transactions.port.ts";

/**
 * What refunds needs of a transaction. A consumer (asking through refunds, as themselves)
 * sees only their own record (a sandbox token: of its merchant), anyone else's being as absent
 * as an unknown one; the refunds service on its own account sees any.
 */
export async function getTransactionForRefund(
  deps: { transactions: TransactionsPort },
  principal: Principal,
  transactionUuid: string,
): Promise<RefundableTransaction> {
  if (principal.kind !== "user" && principal.kind !== "service") {
    throw new AppError("permission_denied", "this action needs a consumer auth token");
  }
  const t = await deps.transactions.findByUuid(transactionUuid);
  if (!t || (principal.kind === "user" && (t.user_id !== principal.userId || !reachesMerchant(principal, t.merchantId)))) {
    throw new AppError("transaction_not_found", `no transaction ${transactionUuid}`, { param: "transaction_uuid" });
  }
  return {
    transaction_uuid: t.transaction_uuid,
    checkout_ref: t.checkoutRef,
    checkout_number: t.checkout_id,
    merchant_id: t.merchantId,
    user_id: t.user_id,
    amount_cents: t.amountCents,
    currency: t.currency,
    transaction_status: t.transaction_status,
  };
}
