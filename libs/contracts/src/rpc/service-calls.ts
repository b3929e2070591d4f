import { getCheckoutSummaryOp } from "../operations/checkout/get-checkout-summary.op.ts";
import { getNoticeRecipientOp } from "../operations/checkout/get-notice-recipient.op.ts";
import { verifyLinkTokenOp } from "../operations/checkout/verify-link-token.op.ts";
import { getMerchantOp } from "../operations/identity/get-merchant.op.ts";
import { getNoticeContactsOp } from "../operations/identity/get-notice-contacts.op.ts";
import { sendNoticeSmsOp } from "../operations/identity/send-notice-sms.op.ts";
import { isOperatorOp } from "../operations/identity/is-operator.op.ts";
import { getMandateCopyOp } from "../operations/payments/get-mandate-copy.op.ts";
import { getTransactionForRefundOp } from "../operations/payments/get-transaction-for-refund.op.ts";
import { simulateRefundPayoutOp } from "../operations/payments/simulate-refund-payout.op.ts";
import { createPayoutOp } from "../operations/payments/payout-transfers.op.ts";
import { startRefundTransferOp } from "../operations/payments/start-refund-transfer.op.ts";
import type { ServicePrincipal } from "./principal.ts";

/**
 * Every RPC operation a domain service calls on another, by caller: the whole of what one
 * service may ask of the others. A service calls only on its own account (a `service`
 * principal naming itself) and checks the tenant itself before it asks; the receiving side
 * (libs/messaging `refusedPrincipal`) refuses any other operation from that service's broker
 * users, so a leaked service password reaches these operations and no merchant's API.
 * docs/decisions/0002-service-principals.md says why.
 */
export const SERVICE_CALLS: Readonly<Record<string, readonly string[]>> = {
  checkout: [],
  identity: [],
  payments: [verifyLinkTokenOp.pattern, getCheckoutSummaryOp.pattern, getMerchantOp.pattern],
  refunds: [isOperatorOp.pattern, getTransactionForRefundOp.pattern, startRefundTransferOp.pattern, simulateRefundPayoutOp.pattern],
  webhooks: [],
  // Consumer notices: the contacts and words they need, and SMS through identity (docs/decisions/0009-consumer-notices.md).
  notices: [getNoticeContactsOp.pattern, sendNoticeSmsOp.pattern, getNoticeRecipientOp.pattern, getMandateCopyOp.pattern],
  // The merchant's books come from events (docs/decisions/0042-merchant-books.md); payouts ask
  // payments to move the money (docs/decisions/0050-payouts.md).
  ledger: [createPayoutOp.pattern],
};

/**
 * The request `service` makes of another service on its own account: the request id travels on
 * (for the logs), the principal it serves never does.
 */
export function onOwnAccount(service: string, meta: { requestId: string }): { requestId: string; principal: ServicePrincipal } {
  return { requestId: meta.requestId, principal: { kind: "service", service } };
}

/** Whether `service` may call `pattern` on its own account. */
export function serviceMayCall(service: string, pattern: string): boolean {
  return SERVICE_CALLS[service]?.includes(pattern) ?? false;
}
