import { createHash } from "node:crypto";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken } from "./support/bank-linking.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();

const CLIENT_IP = "203.0.113.9";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) MandateTest/1.0";

type Mandate = {
  id: string;
  checkout_id: string;
  type: string;
  status: string;
  text_version: string | null;
  text_sha256: string | null;
  ip_address: string | null;
  user_agent: string | null;
  bank_account: { institution: string | null; mask: string | null };
  last_debit_at: string | null;
  revoked_at: string | null;
};

/**
 * Mandates over HTTP (docs/api-notes.md, Mandates, issue 20 item 1): the consumer's acceptance of the text is
 * recorded with the request's address and user agent; the seed's flow gets a merchant-attested
 * mandate; no debit is made without an active mandate (first charge and renewals); cancelling a
 * subscription revokes it.
 */
describe.each(variants)("mandates through the gateway over $name", (variant) => {
  let stack: Stack;
  let store: Store;
  let merchant: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    store = await variant.store();
    merchant = await stack.merchant("Corner Bakery");
    other = await stack.merchant("Other Shop");
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const asMerchant = (apiKey = merchant.apiKey) => ({ "api-key": apiKey });
  const post = (url: string, payload: object, headers: Record<string, string> = asMerchant()) => stack.app.inject({ method: "POST", url, payload, headers });
  const debit = (id: string) => post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id });
  const checkout = async (id: string) => (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: asMerchant() })).json();
  const mandate = async (id: string, apiKey = merchant.apiKey) => stack.app.inject({ url: `/api/merchants/mandates/${id}`, headers: asMerchant(apiKey) });
  /** The checkout's mandate id, once the checkout learnt it from mandate.created. */
  const mandateIdOf = (id: string) => eventually(async () => {
    const view = await checkout(id);
    expect(view.mandate_id).toMatch(/^mdt_[0-9a-f]{32}$/);
    return view.mandate_id as string;
  });

  /** A consumer flow through the real endpoints that reads the mandate text and accepts it (or `textVersion`). */
  async function acceptedFlow(overrides: Record<string, unknown> = {}, textVersion?: string) {
    const { id } = (await post("/api/merchants/checkout", sampleCheckout(overrides))).json();
    const { link_token: linkToken } = (await stack.app.inject({ url: `/api/merchants/checkout/${id}/generate_link_token`, headers: asMerchant() })).json();
    const consumer = await consumerToken(stack, merchant.apiKey);
    const headers = { authorization: `Token ${consumer.token}`, "link-token": linkToken, "user-agent": USER_AGENT };
    const textReply = await stack.app.inject({ url: `/api/consumers/checkout/${id}/mandate_text`, headers });
    expect(textReply.statusCode, textReply.body).toBe(200);
    const text = textReply.json() as { text_version: string; text: string };
    /** Links a bank account (the `account`th of the sandbox item) and accepts the text. */
    const link = async (account = 0) => {
      const bank = (await stack.app.inject({ method: "POST", url: `/api/consumers/checkout/${id}/create_link_token`, headers })).json();
      const sandbox = (await post("/api/sandbox/public_token", { link_token: bank.link_token })).json();
      return stack.app.inject({
        method: "POST",
        url: `/api/consumers/checkout/${id}/exchange_public_token`,
        remoteAddress: CLIENT_IP,
        headers,
        payload: { public_token: sandbox.public_token, bankdata_account_id: sandbox.accounts[account].account_id, mandate: { text_version: textVersion ?? text.text_version } },
      });
    };
    const exchange = await link();
    return { id: id as string, consumer, text, exchange, relink: link };
  }

  describe.skipIf(!!variant.skipReason)("the consumer's acceptance", () => {
    it("records the text version and hash, the request's address and user agent, and the account; the checkout shows mandate_id", async () => {
      const { id, text, exchange } = await acceptedFlow();
      expect(exchange.statusCode, exchange.body).toBe(200);
      expect(text.text_version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
      expect(text.text).toContain("Corner Bakery");
      expect(text.text).toContain("a one-time payment of $107.50");
      expect(text.text).toContain("/account");
      expect((await debit(id)).statusCode).toBe(200);

      const mandateId = await mandateIdOf(id);
      const shown = await mandate(mandateId);
      expect(shown.statusCode).toBe(200);
      const m = shown.json() as Mandate;
      expect(m).toMatchObject({
        id: mandateId,
        checkout_id: id,
        type: "one_off",
        status: "active",
        text_version: text.text_version,
        text_sha256: createHash("sha256").update(text.text).digest("hex"),
        ip_address: CLIENT_IP,
        user_agent: USER_AGENT,
        bank_account: { institution: "First Platypus Bank", mask: "0000" },
        revoked_at: null,
      });
      expect(m.last_debit_at).not.toBeNull();
      // Another merchant's mandate does not exist for it.
      expect((await mandate(mandateId, other.apiKey)).statusCode).toBe(404);
      expect((await mandate("mdt_00000000000000000000000000000000")).json().error.code).toBe("mandate_not_found");
    });

    it("names the plan's frequency in a subscription's text", async () => {
      const { text, exchange } = await acceptedFlow({ is_subscription: true, plan_type: "monthly" });
      expect(exchange.statusCode).toBe(200);
      expect(text.text).toContain("$107.50 every month, starting on");
      expect(text.text).toContain("until you cancel");
    });

    it("revokes the first link's mandate when the consumer links another account, and the checkout shows the new one", async () => {
      const { id, relink } = await acceptedFlow();
      const first = await mandateIdOf(id);
      expect((await relink(1)).statusCode).toBe(200);
      const second = await eventually(async () => {
        const shown = (await checkout(id)).mandate_id as string;
        expect(shown).not.toBe(first);
        return shown;
      });
      expect((await mandate(first)).json()).toMatchObject({ status: "revoked", bank_account: { mask: "0000" } });
      expect((await mandate(second)).json()).toMatchObject({ status: "active", bank_account: { mask: "1111" } });
      expect((await debit(id)).statusCode).toBe(200);
    });

    it("refuses a text version that is not the current one with 400, saving nothing", async () => {
      const { id, exchange } = await acceptedFlow({}, "2020-01-01.1");
      expect(exchange.statusCode).toBe(400);
      expect(exchange.json().error).toMatchObject({ code: "mandate_text_outdated", param: "mandate.text_version" });
      expect((await debit(id)).json().error.code).toBe("payment_method_missing");
    });
  });

  describe.skipIf(!!variant.skipReason)("no debit without an active mandate", () => {
    it("refuses the debit of a consumer flow that sent a mandate whose record is missing (409 mandate_required)", async () => {
      const { id, exchange } = await acceptedFlow();
      expect(exchange.statusCode).toBe(200);
      const mandateId = await mandateIdOf(id);
      await store.collection("mandates").deleteOne({ _id: mandateId });
      const refused = await debit(id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe("mandate_required");
      expect((await checkout(id)).transfer).toBeNull();
    });

    it("refuses the debit on a revoked mandate (409 mandate_revoked)", async () => {
      const { id } = await acceptedFlow();
      const mandateId = await mandateIdOf(id);
      await store.collection("mandates").findOneAndUpdate({ _id: mandateId }, { $set: { status: "revoked" } });
      const refused = await debit(id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe("mandate_revoked");
      expect((await checkout(id)).transfer).toBeNull();
    });

    it("gives a seed-style flow (no mandate sent) a merchant_attested mandate at its first debit", async () => {
      const { id } = await linkedCheckout(stack, merchant.apiKey);
      expect((await checkout(id)).mandate_id).toBeNull();
      expect((await debit(id)).json()).toMatchObject({ message: "Transaction executed" });
      const m = (await mandate(await mandateIdOf(id))).json() as Mandate;
      expect(m).toMatchObject({ checkout_id: id, type: "merchant_attested", status: "active", text_version: null, ip_address: null, user_agent: null, bank_account: { mask: "0000" } });
      expect(m.last_debit_at).not.toBeNull();
      // Calling again answers the same transfer and changes no mandate.
      expect((await debit(id)).statusCode).toBe(200);
      expect((await checkout(id)).mandate_id).toBe(m.id);
    });
  });

  describe.skipIf(!!variant.skipReason)("subscriptions", () => {
    const advance = async (uuid: string, to: string) => {
      const reply = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json() as { transaction_uuid: string; transaction_date_time: string }[];
    };

    it("revokes the subscription's mandate when the consumer cancels", async () => {
      const { id, consumer, exchange } = await acceptedFlow({ is_subscription: true, plan_type: "monthly" });
      expect(exchange.statusCode).toBe(200);
      const uuid = (await debit(id)).json().transaction_uuid as string;
      const mandateId = await mandateIdOf(id);
      expect((await mandate(mandateId)).json()).toMatchObject({ type: "recurring", status: "active" });
      const cancelled = await post("/api/merchants/manage_subscription/subscription_cancel", { subscription_transaction_uuid: uuid }, { authorization: `Token ${consumer.token}` });
      expect(cancelled.statusCode).toBe(200);
      const m = (await mandate(mandateId)).json() as Mandate;
      expect(m.status).toBe("revoked");
      expect(m.revoked_at).not.toBeNull();
    });

    it("sends no renewal on a revoked mandate (test clock)", async () => {
      const { id } = await linkedCheckout(stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly" });
      const uuid = (await debit(id)).json().transaction_uuid as string;
      expect((await post(`/api/sandbox/transfers/${uuid}/simulate`, { status: "completed" })).statusCode).toBe(200);
      const [first] = await advance(uuid, new Date().toISOString());
      const mandateId = await mandateIdOf(id);
      // Revoked while the subscription stays active: only the mandate stands between it and the debit.
      await store.collection("mandates").findOneAndUpdate({ _id: mandateId }, { $set: { status: "revoked" } });
      const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
      const records = await advance(uuid, due(2));
      expect(records.map((r) => r.transaction_uuid)).toEqual([uuid]);
    });
  });
});

/** The mandate events reach the merchant (events API, webhooks follow EVENT_TYPES) with the mandate as Get Mandate shows it. */
// Variants are single-use (cleanup closes them): this suite has its own.
describe.each(await infraVariants())("mandate events over $name", (variant) => {
  const world = withWebhooksStack(variant);

  it.skipIf(!!variant.skipReason)("lists mandate.created when it is recorded and mandate.revoked when the subscription is cancelled", async () => {
    const { stack } = world;
    const { apiKey } = await stack.merchant("Events Bakery");
    const headers = { "api-key": apiKey };
    const { id, consumer } = await linkedCheckout(stack, apiKey, { is_subscription: true, plan_type: "weekly" });
    const started = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers });
    const uuid = started.json().transaction_uuid as string;
    const cancelled = await stack.app.inject({
      method: "POST",
      url: "/api/merchants/manage_subscription/subscription_cancel",
      payload: { subscription_transaction_uuid: uuid },
      headers: { authorization: `Token ${consumer.token}` },
    });
    expect(cancelled.statusCode).toBe(200);
    const events = await eventually(async () => {
      const listed = (await stack.app.inject({ url: "/api/merchants/events?type=mandate.*", headers })).json() as { data: { type: string; data: { object: Mandate } }[] };
      expect(listed.data.map((e) => e.type).sort()).toEqual(["mandate.created", "mandate.revoked"]);
      return listed.data;
    });
    const revoked = events.find((e) => e.type === "mandate.revoked")!.data.object;
    expect(revoked).toMatchObject({ checkout_id: id, type: "merchant_attested", status: "revoked" });
    expect(revoked.revoked_at).not.toBeNull();
    const shown = (await stack.app.inject({ url: `/api/merchants/mandates/${revoked.id}`, headers })).json();
    expect(shown).toEqual(revoked);
  });
});
