import { randomBytes } from "node:crypto";
import * as notices from "@payrail/notices";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken } from "./support/bank-linking.ts";
import { linkedCheckout, type LinkedCheckout } from "./support/payment-flow.ts";

const variants = await infraVariants();
const UNVERIFIABLE = 2;
const START = "/api/consumers/bank_account/micro_deposits";

/**
 * Account validation over HTTP (docs/decisions/0041-account-validation.md): the consumer's two
 * routes with the headers of bank linking, the amounts as the sandbox's notice tells them, the
 * merchant's first debit refused before and made after, the mandate's and the events' record of
 * it; bad input and other callers refused.
 */
describe.each(variants)("micro-deposits over HTTP over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };
  const services: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    services.push(...(await startServices(["webhooks"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() })));
    services.push(
      await notices.start({
        transport: await variant.transport(),
        store: await variant.store(),
        logger: silentLogger(),
        smtpUrl: undefined,
        publicUrl: "https://pay.example",
        worker: { pollMs: 100 },
        subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 500 } },
      }),
    );
    merchant = await stack.merchant("Acme");
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const asMerchant = () => ({ "api-key": merchant.apiKey });
  const consumerHeaders = (c: LinkedCheckout) => ({ authorization: `Token ${c.consumer.token}`, "link-token": c.linkToken });
  const start = (c: LinkedCheckout, headers: Record<string, string> = consumerHeaders(c)) => stack.app.inject({ method: "POST", url: START, headers });
  const verify = (c: LinkedCheckout, payload: unknown, headers: Record<string, string> = consumerHeaders(c)) =>
    stack.app.inject({ method: "POST", url: `${START}/verify`, headers, payload: payload as object });
  const charge = (id: string) => stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers: asMerchant() });
  const checkout = async (id: string) => (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: asMerchant() })).json() as { mandate_id: string | null };
  const mandate = async (id: string) => (await stack.app.inject({ url: `/api/merchants/mandates/${id}`, headers: asMerchant() })).json() as { validation: unknown };
  const events = async (type: string, checkoutId: string) =>
    ((await stack.app.inject({ url: `/api/merchants/events?type=${type}`, headers: asMerchant() })).json() as { data: { data: { object: Record<string, unknown> } }[] }).data
      .map((e) => e.data.object)
      .filter((o) => o["checkout_id"] === checkoutId);
  /** The two amounts, as the sandbox's micro_deposits notice tells the consumer. */
  const noticedAmounts = (checkoutId: string) =>
    eventually(async () => {
      const reply = await stack.app.inject({ url: `/api/sandbox/notices?checkout_id=${checkoutId}`, headers: asMerchant() });
      const notice = (reply.json() as { data: { type: string; body: string }[] }).data.find((n) => n.type === "micro_deposits");
      const amounts = /the amounts are \$(0\.\d\d) and \$(0\.\d\d)/.exec(notice?.body ?? "");
      expect(amounts, notice?.body).not.toBeNull();
      return [amounts![1]!, amounts![2]!] as [string, string];
    });

  describe.skipIf(!!variant.skipReason)("the consumer's walk", () => {
    it("refuses the first debit, sends the deposits the sandbox notice shows, validates them, then the debit goes", async () => {
      const c = await linkedCheckout(stack, merchant.apiKey, {}, { account: UNVERIFIABLE, acceptMandate: true });
      const refused = await charge(c.id);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toMatchObject({ code: "bank_account_not_validated" });
      const { mandate_id } = await eventually(async () => {
        const found = await checkout(c.id);
        expect(found.mandate_id).toMatch(/^mdt_/);
        return found;
      });
      expect((await mandate(mandate_id!)).validation).toBeNull();

      const started = await start(c);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toMatchObject({ status: "micro_deposits_sent", micro_deposits: { tries_left: 3 } });
      const [a, b] = await noticedAmounts(c.id);

      const verified = await verify(c, { amounts: [b, a] });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toMatchObject({ status: "validated", validation: { method: "micro_deposits" } });
      expect((await mandate(mandate_id!)).validation).toMatchObject({ method: "micro_deposits" });
      const paid = await charge(c.id);
      expect(paid.statusCode, paid.body).toBe(200);
      await eventually(async () => {
        expect(await events("bank_account.validation_required", c.id)).toEqual([expect.objectContaining({ object: "bank_account", status: "validation_required", validation: null })]);
        expect(await events("bank_account.validated", c.id)).toEqual([expect.objectContaining({ status: "validated", validation: expect.objectContaining({ method: "micro_deposits" }) })]);
      });
    });

    it("tells the consumer how many tries are left, and locks the account at the third wrong pair", async () => {
      const c = await linkedCheckout(stack, merchant.apiKey, {}, { account: UNVERIFIABLE });
      expect((await start(c)).statusCode).toBe(200);
      const sent = await noticedAmounts(c.id);
      const wrong = ["0.99", "0.98", "0.97", "0.96"].filter((x) => !sent.includes(x)).slice(0, 2);
      for (const left of ["2 tries left", "1 try left"]) {
        const reply = await verify(c, { amounts: wrong });
        expect(reply.statusCode).toBe(400);
        expect(reply.json().error).toMatchObject({ code: "micro_deposit_amounts_mismatch", param: "amounts", message: expect.stringContaining(left) });
      }
      const locked = await verify(c, { amounts: wrong });
      expect(locked.statusCode).toBe(409);
      expect(locked.json().error.code).toBe("micro_deposits_locked");
      expect((await verify(c, { amounts: sent })).statusCode).toBe(409);
      expect((await charge(c.id)).json().error.code).toBe("bank_account_not_validated");
    });

    it("validates the accounts the bank-data provider returned numbers for when they are linked, as before", async () => {
      const c = await linkedCheckout(stack, merchant.apiKey, {}, { acceptMandate: true });
      const { mandate_id } = await eventually(async () => {
        const found = await checkout(c.id);
        expect(found.mandate_id).toMatch(/^mdt_/);
        return found;
      });
      expect((await mandate(mandate_id!)).validation).toMatchObject({ method: "bank_data_provider" });
      const again = await start(c);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe("bank_account_already_validated");
      expect((await charge(c.id)).statusCode).toBe(200);
    });
  });

  describe.skipIf(!!variant.skipReason)("bad input and other callers", () => {
    it.each([
      ["one amount", { amounts: ["0.07"] }],
      ["three amounts", { amounts: ["0.07", "0.15", "0.20"] }],
      ["an amount of a dollar", { amounts: ["0.07", "1.00"] }],
      ["numbers", { amounts: [0.07, 0.15] }],
      ["cents", { amounts: ["7", "15"] }],
      ["three decimals", { amounts: ["0.070", "0.15"] }],
      ["a sign", { amounts: ["-0.07", "0.15"] }],
      ["zero", { amounts: ["0.00", "0.15"] }],
      ["one string", { amounts: "0.07,0.15" }],
      ["no amounts", {}],
    ])("refuses %s with a 400 naming amounts, and counts no try", async (_label, payload) => {
      const c = await linkedCheckout(stack, merchant.apiKey, {}, { account: UNVERIFIABLE });
      expect((await start(c)).statusCode).toBe(200);
      const reply = await verify(c, payload);
      expect(reply.statusCode, reply.body).toBe(400);
      expect(reply.json().error).toMatchObject({ type: "invalid_request_error", param: "amounts" });
      expect((await start(c)).json()).toMatchObject({ micro_deposits: { tries_left: 3 } });
    });

    it("lets neither the merchant nor another consumer act on the account", async () => {
      const c = await linkedCheckout(stack, merchant.apiKey, {}, { account: UNVERIFIABLE });
      const asMerchantOnly = await start(c, { ...asMerchant(), "link-token": c.linkToken });
      expect(asMerchantOnly.statusCode).toBe(401);
      const other = await consumerToken(stack, merchant.apiKey);
      const asOther = await start(c, { authorization: `Token ${other.token}`, "link-token": c.linkToken });
      expect(asOther.statusCode).toBe(409);
      expect(asOther.json().error.code).toBe("checkout_claimed");
      const noLinkToken = await start(c, { authorization: `Token ${c.consumer.token}` });
      expect(noLinkToken.statusCode).toBe(401);
      expect(noLinkToken.json().error.code).toBe("link_token_missing");
      expect((await verify(c, { amounts: ["0.01", "0.02"] }, { authorization: `Token ${other.token}`, "link-token": c.linkToken })).statusCode).toBe(409);
    });
  });
});
