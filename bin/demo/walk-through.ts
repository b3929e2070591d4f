import { createPayrailClient } from "@payrail/client";
import { checkoutWhen, payCheckout, settle, stepper, type Log } from "./sandbox-steps.ts";

/** What one step printed, for callers (tests) that check the walk-through ended where it should. */
export interface WalkThroughResult {
  paidCheckout: { id: string; status: string };
  cancelledSubscription: { message: string; subscription_status: string };
  completedRefund: { id: string; status: string };
  /** A second refund left for the merchant to decide, so the dashboard's refunds page has one to approve. */
  pendingRefund: { id: string; status: string; amount: string };
}

/**
 * The walk-through (docs/guide/walk-through.md), run against a Payrail in sandbox mode with the typed client:
 * a one-off payment settled, a subscription paid then cancelled, and part of the payment
 * refunded to completion, then a second refund asked and left for the merchant to decide in
 * the dashboard. Each step prints its number (as in the walk-through) and what it got;
 * the first failed step throws with the answer's status and error body.
 */
export async function walkThrough(baseUrl: string, apiKey: string, log: Log = console.log): Promise<WalkThroughResult> {
  const merchant = createPayrailClient(baseUrl, { apiKey });
  const step = stepper(log);

  log("One-off payment");
  const oneOff = await payCheckout(merchant, baseUrl, step, false);
  await settle(merchant, step, oneOff.transactionUuid, "   settle (the bank, simulated)");
  const paid = await step(
    " 2. Get Checkout",
    checkoutWhen(merchant, oneOff.checkoutId, (c) => c.status === "paid"),
    (c) => `status ${c.status}`,
  );

  log("Subscription");
  const subscription = await payCheckout(merchant, baseUrl, step, true);
  await settle(merchant, step, subscription.transactionUuid, "   settle the first charge");
  await step(
    " 2. Get Checkout",
    checkoutWhen(merchant, subscription.checkoutId, (c) => c.status === "paid"),
    (c) => `status ${c.status}, subscription ${c.subscription_status}`,
  );
  const consumer = createPayrailClient(baseUrl, { authToken: subscription.authToken });
  const cancelled = await step(
    "10. Subscription Cancel",
    consumer.POST("/api/merchants/manage_subscription/subscription_cancel", {
      body: { subscription_transaction_uuid: subscription.transactionUuid },
    }),
    (a) => a.message,
  );
  const ended = await step(
    " 2. Get Checkout",
    checkoutWhen(merchant, subscription.checkoutId, (c) => c.subscription_status === "cancelled"),
    (c) => `subscription ${c.subscription_status}`,
  );

  log("Refund of 40.00 of the one-off payment");
  const payer = createPayrailClient(baseUrl, { authToken: oneOff.authToken });
  const asked = await step(
    "11. Consumer Refund Request",
    payer.POST("/api/merchants/refund_request/consumer_refund_request", {
      body: { transaction_uuid: oneOff.transactionUuid, reason: "One item arrived broken", amount: "40.00" },
    }),
    (a) => `${a.refund.id} ${a.refund.status} ${a.refund.amount}`,
  );
  await step(
    "13. Merchant Status Refund Request",
    merchant.POST("/api/merchants/refund_request/merchant_status_refund_request", { body: { id: asked.refund.id, status: "Approved" } }),
    (a) => a.refund.status,
  );
  const sent = await step(
    "14. Initiate Refund Transfer",
    merchant.POST("/api/merchants/refund_request/initiate_refund_transfer", { body: { id: asked.refund.id, status: "approved" } }),
    (a) => `${a.refund.status}, transfer ${a.refund.refund_transaction_id}`,
  );
  await settle(merchant, step, sent.refund.refund_transaction_id ?? "", "    settle the refund transfer");
  const refund = await step(
    "    the refund",
    merchant.GET("/api/merchants/refunds/{id}", { params: { path: { id: asked.refund.id } } }),
    (r) => `${r.id} ${r.status}`,
  );
  log("A second refund, of 10.00, left for you to approve in the dashboard");
  const waiting = await step(
    "11. Consumer Refund Request",
    payer.POST("/api/merchants/refund_request/consumer_refund_request", {
      body: { transaction_uuid: oneOff.transactionUuid, reason: "Late delivery", amount: "10.00" },
    }),
    (a) => `${a.refund.id} ${a.refund.status} ${a.refund.amount}`,
  );
  return {
    paidCheckout: { id: paid.id, status: paid.status },
    pendingRefund: { id: waiting.refund.id, status: waiting.refund.status, amount: String(waiting.refund.amount) },
    cancelledSubscription: { message: cancelled.message, subscription_status: ended.subscription_status },
    completedRefund: { id: refund.id, status: refund.status },
  };
}
