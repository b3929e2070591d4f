import { randomBytes } from "node:crypto";
import { createPayrailClient, type PayrailClient } from "@payrail/client";
import { CREATE_CHECKOUT_EXAMPLE } from "@payrail/gateway";

/** What one step printed, for callers (tests) that check the walk-through ended where it should. */
export interface WalkThroughResult {
  paidCheckout: { id: string; status: string };
  cancelledSubscription: { message: string; subscription_status: string };
  completedRefund: { id: string; status: string };
}

type Log = (line: string) => void;
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The README's walk-through, run against a Payrail in sandbox mode with the typed client:
 * a one-off payment settled, a subscription paid then cancelled, and part of the payment
 * refunded to completion. Each step prints its number (as in the README) and what it got;
 * the first failed step throws with the answer's status and error body.
 */
export async function walkThrough(baseUrl: string, apiKey: string, log: Log = console.log): Promise<WalkThroughResult> {
  const merchant = createPayrailClient(baseUrl, { apiKey });
  const step = async <T>(label: string, call: Promise<Answer<T>>, show: (data: T) => string): Promise<T> => {
    const { data, error, response } = await call;
    if (data === undefined || error !== undefined) throw new Error(`${label}: HTTP ${response.status} ${JSON.stringify(error)}`);
    log(`${label}: ${show(data)}`);
    return data;
  };

  log("One-off payment");
  const oneOff = await payCheckout(merchant, baseUrl, apiKey, step, false);
  await settle(merchant, step, oneOff.transactionUuid, "   settle (the bank, simulated)");
  const paid = await step(
    " 2. Get Checkout",
    checkoutWhen(merchant, oneOff.checkoutId, (c) => c.status === "paid"),
    (c) => `status ${c.status}`,
  );

  log("Subscription");
  const subscription = await payCheckout(merchant, baseUrl, apiKey, step, true);
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
  return {
    paidCheckout: { id: paid.id, status: paid.status },
    cancelledSubscription: { message: cancelled.message, subscription_status: ended.subscription_status },
    completedRefund: { id: refund.id, status: refund.status },
  };
}

type Step = <T>(label: string, call: Promise<Answer<T>>, show: (data: T) => string) => Promise<T>;

/**
 * Get Checkout once it shows `ready` (or after 5 s, as it then is): the checkout follows the
 * payment's events a moment after the call that caused them, as a merchant's backend sees it
 * too (docs/events.md); webhooks tell without polling.
 */
async function checkoutWhen(merchant: PayrailClient, checkoutId: string, ready: (c: { status: string; subscription_status: string }) => boolean) {
  const get = () => merchant.GET("/api/merchants/checkout/{checkout_id}", { params: { path: { checkout_id: checkoutId } } });
  for (let i = 0; i < 50; i++) {
    const answer = await get();
    if (answer.data === undefined || ready(answer.data)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return get();
}

/** The sandbox completes a transfer (or a refund's transfer), as the bank would. */
async function settle(merchant: PayrailClient, step: Step, transactionUuid: string, label: string): Promise<void> {
  await step(
    label,
    merchant.POST("/api/sandbox/transfers/{transaction_uuid}/simulate", {
      params: { path: { transaction_uuid: transactionUuid } },
      body: { status: "completed" },
    }),
    () => "completed",
  );
}

/** Steps 1–8 for one checkout: created, linked to a sandbox bank account by a new consumer, transfer started. */
async function payCheckout(merchant: PayrailClient, baseUrl: string, apiKey: string, step: Step, subscription: boolean) {
  const created = await step(
    " 1. Create Checkout",
    merchant.POST("/api/merchants/checkout", { body: checkoutBody(subscription) }),
    (c) => c.id,
  );
  const checkoutId = created.id;
  const link = await step(
    " 3. Generate Link Token",
    merchant.GET("/api/merchants/checkout/{checkout_id}/generate_link_token", { params: { path: { checkout_id: checkoutId } } }),
    (l) => `expires ${l.expiration}`,
  );
  // A new consumer each time: a phone in the fictional 555-01xx range.
  const phone = `+1415555${String(100 + (randomBytes(1)[0]! % 100)).padStart(4, "0")}`;
  const anonymous = createPayrailClient(baseUrl);
  await step(" 4. Send Code", anonymous.POST("/api/verify_user/send_code", { body: { phone } }), (a) => `${a.success} to ${phone}`);
  const code = await step(
    "    read the code (sandbox)",
    merchant.GET("/api/sandbox/verification_codes/{phone}", { params: { path: { phone } } }),
    (c) => c.code,
  );
  const verified = await step(
    " 5. Verify Code",
    anonymous.POST("/api/verify_user/verify_code", { body: { phone, verification_code: code.code } }),
    (a) => a.message,
  );
  const authToken = verified.data.auth_token;
  const consumer = createPayrailClient(baseUrl, { authToken, linkToken: link.link_token });
  const bankLink = await step(
    " 6. Create Link Token",
    consumer.POST("/api/consumers/checkout/{checkout_id}/create_link_token", { params: { path: { checkout_id: checkoutId } } }),
    (b) => b.link_token,
  );
  const picked = await step(
    "    pick an account (sandbox)",
    merchant.POST("/api/sandbox/public_token", { body: { link_token: bankLink.link_token } }),
    (p) => p.accounts[0]?.name ?? "no account",
  );
  await step(
    " 7. Exchange Public Token",
    consumer.POST("/api/consumers/checkout/{checkout_id}/exchange_public_token", {
      params: { path: { checkout_id: checkoutId } },
      body: { public_token: picked.public_token, bankdata_account_id: picked.accounts[0]?.account_id ?? "" },
    }),
    (a) => a.message,
  );
  const executed = await step(
    " 8. Get Processor Token",
    merchant.POST("/api/merchants/payment_preprocess/get_processor_token", { body: { checkout_id: checkoutId } }),
    (a) => `${a.message} ${a.transaction_uuid}`,
  );
  return { checkoutId, authToken, transactionUuid: executed.transaction_uuid };
}

function checkoutBody(subscription: boolean) {
  return {
    ...CREATE_CHECKOUT_EXAMPLE,
    merchant_checkout_id: `order-${randomBytes(6).toString("hex")}`,
    is_subscription: subscription,
    plan_type: subscription ? "monthly" : "",
  };
}
