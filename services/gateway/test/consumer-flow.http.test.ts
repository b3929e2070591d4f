import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { randomPhone } from "./support/bank-linking.ts";
import { eventually } from "../../../test/support/eventually.ts";

const variants = await infraVariants();

describe.each(variants)("the consumer's way from checkout to saved bank account over $name", (variant) => {
  let stack: Stack;
  let apiKey: string;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    apiKey = (await stack.merchant("Flow shop")).apiKey;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  /** One HTTP step that must answer 200; returns its body. */
  const step = async (name: string, options: InjectOptions) => {
    const reply = await stack.app.inject(options);
    expect(reply.statusCode, `${name}: ${reply.body}`).toBe(200);
    return reply.json();
  };

  it.skipIf(!!variant.skipReason)("runs spec steps 1–7 over HTTP and ends with payment_method_saved", async () => {
    const merchant = { "api-key": apiKey };
    // 1–3: the merchant's checkout and its link token.
    const { id } = await step("create checkout", { method: "POST", url: "/api/merchants/checkout", headers: merchant, payload: sampleCheckout() });
    const { link_token: linkToken } = await step("generate link token", {
      method: "GET",
      url: `/api/merchants/checkout/${id}/generate_link_token`,
      headers: merchant,
    });

    // 4–5: the consumer proves the phone and gets an auth token.
    const phone = randomPhone();
    expect(await step("send code", { method: "POST", url: "/api/verify_user/send_code", payload: { phone } })).toEqual({
      success: expect.any(String),
    });
    const { code } = await step("sandbox code", { method: "GET", url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: merchant });
    const verified = await step("verify code", { method: "POST", url: "/api/verify_user/verify_code", payload: { phone, verification_code: code } });
    const consumer = { authorization: `Token ${verified.data.auth_token}`, "link-token": linkToken };

    // 6: a bank-linking token; the sandbox plays the provider's account picker.
    const bank = await step("create link token", { method: "POST", url: `/api/consumers/checkout/${id}/create_link_token/`, headers: consumer });
    expect(bank).toEqual({ link_token: expect.any(String), expiration: expect.any(String), request_id: expect.any(String) });
    const picked = await step("sandbox public token", { method: "POST", url: "/api/sandbox/public_token", headers: merchant, payload: { link_token: bank.link_token } });
    const checking = picked.accounts.find((a: { subtype: string }) => a.subtype === "checking");

    // 7: the public token and the chosen account are exchanged and saved.
    const saved = await step("exchange public token", {
      method: "POST",
      url: `/api/consumers/checkout/${id}/exchange_public_token/`,
      headers: consumer,
      payload: { public_token: picked.public_token, bankdata_account_id: checking.account_id },
    });
    expect(saved).toEqual({ message: "Payment method saved" });

    // The checkout follows payments' payment_method.saved event, asynchronously.
    const view = await eventually(async () => {
      const v = await step("get checkout", { method: "GET", url: `/api/merchants/checkout/${id}`, headers: merchant });
      expect(v).toMatchObject({ id, status: "payment_method_saved", transfer: null });
      return v;
    });
    expect(JSON.stringify(view)).not.toMatch(/access-sandbox|public-sandbox/);
  });
});
