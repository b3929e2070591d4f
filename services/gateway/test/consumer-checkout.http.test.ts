import { sha256Hex } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken, consumerToken } from "./support/bank-linking.ts";
import { eventually, withoutOutbox } from "../../../test/support/eventually.ts";

const variants = await infraVariants();

describe.each(variants)("consumer bank-linking endpoints over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let apiKey: string;
  let ada: { token: string; userId: string };
  let bob: { token: string; userId: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    store = await variant.store();
    apiKey = (await stack.merchant()).apiKey;
    ada = await consumerToken(stack, apiKey);
    bob = await consumerToken(stack, apiKey);
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const headers = (auth: string | undefined, linkToken: string | undefined) => ({
    ...(auth !== undefined ? { authorization: `Token ${auth}` } : {}),
    ...(linkToken !== undefined ? { "link-token": linkToken } : {}),
  });
  const createLink = (method: "GET" | "POST", checkoutId: string, auth: string | undefined, linkToken: string | undefined, suffix = "") =>
    stack.app.inject({ method, url: `/api/consumers/checkout/${checkoutId}/create_link_token${suffix}`, headers: headers(auth, linkToken) });
  const exchange = (checkoutId: string, auth: string | undefined, linkToken: string | undefined, payload: unknown, suffix = "") =>
    stack.app.inject({
      method: "POST",
      url: `/api/consumers/checkout/${checkoutId}/exchange_public_token${suffix}`,
      headers: headers(auth, linkToken),
      payload: payload as Record<string, unknown>,
    });
  const publicToken = async (bankLinkToken: string) => {
    const reply = await stack.app.inject({ method: "POST", url: "/api/sandbox/public_token", headers: { "api-key": apiKey }, payload: { link_token: bankLinkToken } });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json() as { public_token: string; accounts: { account_id: string }[] };
  };
  const statusOf = async (id: string) =>
    (await stack.app.inject({ method: "GET", url: `/api/merchants/checkout/${id}`, headers: { "api-key": apiKey } })).json().status;
  const errorOf = (reply: { statusCode: number; json(): { error: Record<string, unknown> } }) => ({ status: reply.statusCode, ...reply.json().error });

  describe.skipIf(!!variant.skipReason)("flow", () => {
    it("answers GET and POST, with and without a trailing slash, and POST with an empty JSON body", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      for (const [method, suffix] of [["GET", ""], ["POST", "/"], ["GET", "/"], ["POST", ""]] as const) {
        const reply = await createLink(method, c.id, ada.token, c.linkToken, suffix);
        expect(reply.statusCode, `${method} ${suffix} ${reply.body}`).toBe(200);
        expect(reply.json()).toEqual({ link_token: expect.stringMatching(/^link-sandbox-/), expiration: expect.any(String), request_id: expect.any(String) });
      }
      const empty = await stack.app.inject({
        method: "POST",
        url: `/api/consumers/checkout/${c.id}/create_link_token/`,
        headers: { ...headers(ada.token, c.linkToken), "content-type": "application/json" },
        payload: "",
      });
      expect(empty.statusCode, empty.body).toBe(200);
    });

    it("needs the auth token and the link-token of this checkout", async () => {
      const a = await checkoutWithLinkToken(stack, apiKey);
      const b = await checkoutWithLinkToken(stack, apiKey);
      expect(errorOf(await createLink("POST", a.id, undefined, a.linkToken))).toMatchObject({ status: 401, code: "auth_token_missing" });
      expect(errorOf(await createLink("POST", a.id, "x".repeat(43), a.linkToken))).toMatchObject({ status: 401, code: "auth_token_invalid" });
      expect(errorOf(await createLink("POST", a.id, ada.token, undefined))).toMatchObject({ status: 401, type: "authentication_error", code: "link_token_missing" });
      expect(errorOf(await createLink("GET", a.id, ada.token, "wrong"))).toMatchObject({ status: 401, code: "link_token_invalid" });
      expect(errorOf(await createLink("GET", a.id, ada.token, "x".repeat(600)))).toMatchObject({ status: 401, code: "link_token_invalid" });
      expect(errorOf(await createLink("POST", a.id, ada.token, b.linkToken))).toMatchObject({ status: 403, type: "permission_error", code: "link_token_mismatch" });
      expect(errorOf(await exchange(a.id, ada.token, undefined, { public_token: "p", bankdata_account_id: "a" }))).toMatchObject({ status: 401, code: "link_token_missing" });
      // Nothing was claimed by the refused calls: another consumer can still take `a`.
      expect((await createLink("POST", a.id, bob.token, a.linkToken)).statusCode).toBe(200);
    });

    it("answers 401 link_token_expired for an expired merchant link token", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      await store.collection("link_tokens").findOneAndUpdate({ _id: sha256Hex(c.linkToken) }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
      expect(errorOf(await createLink("POST", c.id, ada.token, c.linkToken))).toMatchObject({ status: 401, code: "link_token_expired" });
    });

    it("links a bank account: the checkout shows payment_method_saved", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      const bank = (await createLink("POST", c.id, ada.token, c.linkToken)).json();
      const { public_token, accounts } = await publicToken(bank.link_token);
      const reply = await exchange(c.id, ada.token, c.linkToken, { public_token, bankdata_account_id: accounts[0]!.account_id, isSandbox: true }, "/");
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toEqual({ message: "Payment method saved" });
      await eventually(async () => expect(await statusOf(c.id)).toBe("payment_method_saved"));
    });

    it("refuses a reused public token with 400 and changes nothing", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      const bank = (await createLink("POST", c.id, ada.token, c.linkToken)).json();
      const { public_token, accounts } = await publicToken(bank.link_token);
      expect((await exchange(c.id, ada.token, c.linkToken, { public_token, bankdata_account_id: accounts[0]!.account_id })).statusCode).toBe(200);
      const before = withoutOutbox(await store.collection("payment_methods").findOne({ _id: c.id }));
      const again = await exchange(c.id, ada.token, c.linkToken, { public_token, bankdata_account_id: accounts[1]!.account_id });
      expect(errorOf(again)).toMatchObject({ status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "public_token", provider_code: "INVALID_PUBLIC_TOKEN" });
      expect(withoutOutbox(await store.collection("payment_methods").findOne({ _id: c.id }))).toEqual(before);
    });

    it("stores nothing half-way when the public token is bad", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      const reply = await exchange(c.id, ada.token, c.linkToken, { public_token: "public-sandbox-made-up", bankdata_account_id: "acc" });
      expect(errorOf(reply)).toMatchObject({ status: 400, param: "public_token" });
      expect(await store.collection("payment_methods").findOne({ _id: c.id })).toBeNull();
      expect(await statusOf(c.id)).toBe("open");
    });

    it("answers 409 checkout_claimed to consumer B once consumer A claimed the checkout", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      expect((await createLink("GET", c.id, ada.token, c.linkToken)).statusCode).toBe(200);
      expect(errorOf(await createLink("GET", c.id, bob.token, c.linkToken))).toMatchObject({ status: 409, type: "conflict_error", code: "checkout_claimed" });
      const bank = (await createLink("POST", c.id, ada.token, c.linkToken)).json();
      const { public_token, accounts } = await publicToken(bank.link_token);
      const stolen = await exchange(c.id, bob.token, c.linkToken, { public_token, bankdata_account_id: accounts[0]!.account_id });
      expect(errorOf(stolen)).toMatchObject({ status: 409, code: "checkout_claimed" });
      // B's attempt did not spend A's public token.
      expect((await exchange(c.id, ada.token, c.linkToken, { public_token, bankdata_account_id: accounts[0]!.account_id })).statusCode).toBe(200);
    });

    it("validates the exchange body after authentication", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      expect(errorOf(await exchange(c.id, undefined, c.linkToken, {}))).toMatchObject({ status: 401, code: "auth_token_missing" });
      expect(errorOf(await exchange(c.id, ada.token, c.linkToken, { bankdata_account_id: "a" }))).toMatchObject({ status: 400, code: "parameter_missing", param: "public_token" });
      expect(errorOf(await exchange(c.id, ada.token, c.linkToken, { public_token: 5, bankdata_account_id: "a" }))).toMatchObject({ status: 400, param: "public_token" });
    });

    it("guards the sandbox public token with an api-key and a bank-linking token", async () => {
      const c = await checkoutWithLinkToken(stack, apiKey);
      const noKey = await stack.app.inject({ method: "POST", url: "/api/sandbox/public_token/", payload: { link_token: "x" } });
      expect(errorOf(noKey)).toMatchObject({ status: 401, code: "api_key_missing" });
      const merchantToken = await stack.app.inject({ method: "POST", url: "/api/sandbox/public_token", headers: { "api-key": apiKey }, payload: { link_token: c.linkToken } });
      expect(errorOf(merchantToken)).toMatchObject({ status: 400, code: "parameter_invalid", param: "link_token" });
    });
  });
});
