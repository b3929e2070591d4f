import { randomBytes } from "node:crypto";
import { createPayrailClient, type PayrailClient } from "@payrail/client";
import { CREATE_CHECKOUT_EXAMPLE } from "@payrail/contracts";

/*
 * The sandbox flow's steps through the typed client, shared by `npm run demo` (the walk-through's
 * walk-through) and `payrail trigger` (one event made to happen for real).
 */

export type Log = (line: string) => void;
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}
export type Step = <T>(label: string, call: Promise<Answer<T>>, show: (data: T) => string) => Promise<T>;

/** A step that prints its label and what it got, and throws with the answer's status and error body when it failed. */
export function stepper(log: Log): Step {
  return async (label, call, show) => {
    const { data, error, response } = await call;
    if (data === undefined || error !== undefined) throw new Error(`${label}: HTTP ${response.status} ${JSON.stringify(error)}`);
    log(`${label}: ${show(data)}`);
    return data;
  };
}

/**
 * Get Checkout once it shows `ready` (or after 5 s, as it then is): the checkout follows the
 * payment's events a moment after the call that caused them, as a merchant's backend sees it
 * too (docs/events.md); webhooks tell without polling.
 */
export async function checkoutWhen(
  merchant: PayrailClient,
  checkoutId: string,
  ready: (c: { status: string; subscription_status: string; next_charge_at?: string | null }) => boolean,
) {
  const get = () => merchant.GET("/api/merchants/checkout/{checkout_id}", { params: { path: { checkout_id: checkoutId } } });
  for (let i = 0; i < 50; i++) {
    const answer = await get();
    if (answer.data === undefined || ready(answer.data)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return get();
}

/**
 * The sandbox completes a transfer (or a refund's transfer), as the bank would; with a
 * `failureCode` (an ACH return code) it fails it, or returns it when it had completed.
 */
export async function settle(merchant: PayrailClient, step: Step, transactionUuid: string, label: string, failureCode?: string): Promise<void> {
  await step(
    label,
    merchant.POST("/api/sandbox/transfers/{transaction_uuid}/simulate", {
      params: { path: { transaction_uuid: transactionUuid } },
      body: failureCode ? { status: "failed", failure_code: failureCode } : { status: "completed" },
    }),
    () => (failureCode ? `failed (${failureCode})` : "completed"),
  );
}

/** Steps 1–8 for one checkout: created, linked to a sandbox bank account by a new consumer, transfer started. */
export async function payCheckout(merchant: PayrailClient, baseUrl: string, step: Step, subscription: boolean) {
  const { checkoutId, authToken } = await linkCheckout(merchant, baseUrl, step, subscription);
  const executed = await step(
    " 8. Get Processor Token",
    merchant.POST("/api/merchants/payment_preprocess/get_processor_token", { body: { checkout_id: checkoutId } }),
    (a) => `${a.message} ${a.transaction_uuid}`,
  );
  return { checkoutId, authToken, transactionUuid: executed.transaction_uuid };
}

/** Step 1: a new checkout (a fresh merchant_checkout_id each time); answers its id. */
export async function createCheckout(merchant: PayrailClient, step: Step, subscription: boolean): Promise<string> {
  const created = await step(" 1. Create Checkout", merchant.POST("/api/merchants/checkout", { body: checkoutBody(subscription) }), (c) => c.id);
  return created.id;
}

/** Steps 1–7 for one checkout: created, and linked to a sandbox bank account by a new consumer. */
export async function linkCheckout(merchant: PayrailClient, baseUrl: string, step: Step, subscription: boolean) {
  const checkoutId = await createCheckout(merchant, step, subscription);
  const link = await step(
    " 3. Generate Link Token",
    merchant.GET("/api/merchants/checkout/{checkout_id}/generate_link_token", { params: { path: { checkout_id: checkoutId } } }),
    (l) => `expires ${l.expiration}`,
  );
  // A new consumer each time, from 10,000 numbers: a number sent a code in the last 30 s would be
  // refused (429), and a consumer's sandbox account blocked by an earlier return stays blocked.
  const phone = `+1415555${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, "0")}`;
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
  return { checkoutId, authToken };
}

export function checkoutBody(subscription: boolean) {
  return {
    ...CREATE_CHECKOUT_EXAMPLE,
    merchant_checkout_id: `order-${randomBytes(6).toString("hex")}`,
    is_subscription: subscription,
    plan_type: subscription ? "monthly" : "",
  };
}
