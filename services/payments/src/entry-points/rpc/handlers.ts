import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { advanceSubscriptionClockHandler } from "./advance-subscription-clock.handler.ts";
import { cancelSubscriptionHandler } from "./cancel-subscription.handler.ts";
import { getPaymentStatsHandler } from "./get-payment-stats.handler.ts";
import { cancelSubscriptionForMerchantHandler } from "./cancel-subscription-for-merchant.handler.ts";
import { updateSubscriptionHandler } from "./update-subscription.handler.ts";
import { createLinkTokenHandler } from "./create-link-token.handler.ts";
import { getProcessorTokenHandler } from "./get-processor-token.handler.ts";
import { handleTransferWebhookHandler } from "./handle-transfer-webhook.handler.ts";
import { listTransactionsHandler } from "./list-transactions.handler.ts";
import { listMerchantTransactionsHandler } from "./list-merchant-transactions.handler.ts";
import { simulateRefundPayoutHandler } from "./simulate-refund-payout.handler.ts";
import { simulateTransferHandler } from "./simulate-transfer.handler.ts";
import type { PaymentsDeps } from "./deps.ts";
import { exchangePublicTokenHandler } from "./exchange-public-token.handler.ts";
import { sandboxConsumerPublicTokenHandler, sandboxPublicTokenHandler } from "./sandbox-public-token.handler.ts";
import { getTransactionForRefundHandler } from "./get-transaction-for-refund.handler.ts";
import { startRefundTransferHandler } from "./start-refund-transfer.handler.ts";
import { createPayoutHandler, simulatePayoutHandler } from "./payout-transfers.handler.ts";
import { reconcileHandler } from "./reconcile.handler.ts";
import { getReturnRatesHandler } from "./get-return-rates.handler.ts";
import { getMandateTextHandler } from "./get-mandate-text.handler.ts";
import { getMandateHandler } from "./get-mandate.handler.ts";
import { getMandateCopyHandler } from "./get-mandate-copy.handler.ts";
import { listConsumerPaymentsHandler } from "./list-consumer-payments.handler.ts";
import { listConsumerSubscriptionsHandler } from "./list-consumer-subscriptions.handler.ts";
import { getSubscriptionMandateHandler } from "./get-subscription-mandate.handler.ts";
import { createRelinkTokenHandler } from "./create-relink-token.handler.ts";
import { relinkBankAccountHandler } from "./relink-bank-account.handler.ts";
import { startMicroDepositsHandler, verifyMicroDepositsHandler } from "./micro-deposits.handler.ts";
import { getRelinkValidationHandler, startRelinkMicroDepositsHandler, verifyRelinkMicroDepositsHandler } from "./relink-micro-deposits.handler.ts";
import { listReviewsHandler } from "./list-reviews.handler.ts";
import { getReviewHandler } from "./get-review.handler.ts";
import { decideReviewHandler } from "./decide-review.handler.ts";
import { getFraudMonitoringHandler } from "./get-fraud-monitoring.handler.ts";
import { recordAnnualReviewHandler } from "./record-annual-review.handler.ts";

/** The payments service's operations: its whole RPC surface in one list. */
export function paymentsHandlers(deps: PaymentsDeps): HandlerEntry[] {
  return [
    createLinkTokenHandler(deps),
    exchangePublicTokenHandler(deps),
    sandboxPublicTokenHandler(deps),
    sandboxConsumerPublicTokenHandler(deps),
    getProcessorTokenHandler(deps),
    listTransactionsHandler(deps),
    listMerchantTransactionsHandler(deps),
    cancelSubscriptionHandler(deps),
    getPaymentStatsHandler(deps),
    cancelSubscriptionForMerchantHandler(deps),
    updateSubscriptionHandler(deps),
    simulateTransferHandler(deps),
    simulateRefundPayoutHandler(deps),
    advanceSubscriptionClockHandler(deps),
    handleTransferWebhookHandler(deps),
    getTransactionForRefundHandler(deps),
    startRefundTransferHandler(deps),
    createPayoutHandler(deps),
    simulatePayoutHandler(deps),
    reconcileHandler(deps),
    getReturnRatesHandler(deps),
    getMandateTextHandler(deps),
    getMandateHandler(deps),
    getMandateCopyHandler(deps),
    listConsumerPaymentsHandler(deps),
    listConsumerSubscriptionsHandler(deps),
    getSubscriptionMandateHandler(deps),
    createRelinkTokenHandler(deps),
    relinkBankAccountHandler(deps),
    startMicroDepositsHandler(deps),
    verifyMicroDepositsHandler(deps),
    startRelinkMicroDepositsHandler(deps),
    verifyRelinkMicroDepositsHandler(deps),
    getRelinkValidationHandler(deps),
    listReviewsHandler(deps),
    getReviewHandler(deps),
    decideReviewHandler(deps),
    getFraudMonitoringHandler(deps),
    recordAnnualReviewHandler(deps),
    handle(pingOp("payments"), async () => {
      await deps.ping();
      return { service: "payments", ok: true as const };
    }),
  ];
}
