import type { DomainEvent } from "@payrail/contracts";
import type { BlockedBankAccountRecord } from "./blocked-bank-account.entity.ts";
import { transferFailureReason } from "../transfers/failure-reason.ts";
import { envelope } from "../shared/payment-events.ts";
import type { PaymentMethodRecord } from "../bank-accounts/payment-method.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/**
 * payment_method.blocked for one checkout (docs/events.md), built from the attempt as it is
 * after the change. The transaction that caused the block is named only to the merchant it
 * belongs to: another merchant learns that the account may not be debited, not whose debit
 * came back.
 */
export function paymentMethodBlockedEvent(
  after: TransferAttemptRecord,
  method: PaymentMethodRecord | null,
  block: BlockedBankAccountRecord,
  at: string,
  livemode: boolean,
): DomainEvent {
  const object = {
    object: "payment_method",
    checkout_id: after._id,
    blocked: true,
    failure_code: block.failureCode,
    failure_reason: transferFailureReason(block.failureCode),
    blocked_at: block.blockedAt,
    bank_account: method?.bankAccount ?? null,
    ...(after.planType ? { subscription_status: after.subscriptionStatus ?? null } : {}),
    ...(block.merchantId === after.merchantId && block.checkoutId === after._id ? { transaction_uuid: block.transactionUuid } : {}),
  };
  return envelope("payment_method.blocked", { type: "payment_method", id: after._id, version: method?.version ?? 1 }, after.merchantId, at, object, livemode);
}
