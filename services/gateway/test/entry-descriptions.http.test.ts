import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;

type TxRecord = { id: number; transaction_uuid: string; company_entry_description: string | null };

/**
 * NACHA's company entry descriptions (docs/decisions/0008-entry-descriptions.md): `PURCHASE`
 * for goods, `RETRY PYMT` on an R01/R09 retry, else the merchant's statement descriptor, on the
 * records of a one-off, its renewals and a retry; and the merchant profile that sets them.
 */
describe.each(variants)("company entry descriptions over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    merchant = await stack.merchant("Acme Coffee Roasters");
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const headers = () => ({ "api-key": merchant.apiKey });
  const post = (url: string, payload: object) => stack.app.inject({ method: "POST", url, payload, headers: headers() });
  const patchProfile = (payload: object, apiKey = merchant.apiKey) => stack.app.inject({ method: "PATCH", url: "/api/merchants/profile", payload, headers: { "api-key": apiKey } });

  async function charged(overrides: Record<string, unknown>, apiKey = merchant.apiKey): Promise<{ id: string; uuid: string }> {
    const { id } = await linkedCheckout(stack, apiKey, overrides);
    const started = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers: { "api-key": apiKey } });
    expect(started.statusCode, started.body).toBe(200);
    return { id, uuid: started.json().transaction_uuid as string };
  }
  const transaction = async (uuid: string, apiKey = merchant.apiKey): Promise<TxRecord> => {
    const reply = await stack.app.inject({ method: "POST", url: `/api/sandbox/transfers/${uuid}/simulate`, payload: { status: "completed" }, headers: { "api-key": apiKey } });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json();
  };

  describe.skipIf(!!variant.skipReason)("the profile", () => {
    it("keeps the support contacts and the descriptor upper case, and clears one with null", async () => {
      const set = await patchProfile({ support_email: "help@acme.test", support_phone: "+14155550100", statement_descriptor: "acme subs", default_transaction_purpose: "goods" });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ id: merchant.id, support_email: "help@acme.test", support_phone: "+14155550100", statement_descriptor: "ACME SUBS", default_transaction_purpose: "goods" });
      expect((await patchProfile({ support_phone: null })).json()).toMatchObject({ support_email: "help@acme.test", support_phone: null, statement_descriptor: "ACME SUBS" });
      expect((await stack.app.inject({ url: "/api/merchants/profile", headers: headers() })).json()).toMatchObject({ support_phone: null, statement_descriptor: "ACME SUBS" });
    });

    it.each([
      [{ statement_descriptor: "ACME<SUBS>" }, "statement_descriptor"],
      [{ statement_descriptor: "ACME COFFEE ROASTERS" }, "statement_descriptor"],
      [{ statement_descriptor: "12345" }, "statement_descriptor"],
      [{ statement_descriptor: " ACME" }, "statement_descriptor"],
      [{ statement_descriptor: "" }, "statement_descriptor"],
      [{ default_transaction_purpose: "gifts" }, "default_transaction_purpose"],
      [{ support_email: "not an email" }, "support_email"],
      [{ support_phone: "555-0100" }, "support_phone"],
    ])("refuses %j with a 400 naming %s, and changes nothing", async (body, param) => {
      const before = (await stack.app.inject({ url: "/api/merchants/profile", headers: headers() })).json();
      const reply = await patchProfile(body);
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error).toMatchObject({ type: "invalid_request_error", param });
      expect((await stack.app.inject({ url: "/api/merchants/profile", headers: headers() })).json()).toEqual(before);
    });

    it("refuses a transaction_purpose Create Checkout does not know", async () => {
      const reply = await post("/api/merchants/checkout", sampleCheckout({ transaction_purpose: "donation" }));
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error).toMatchObject({ param: "transaction_purpose" });
    });
  });

  describe.skipIf(!!variant.skipReason)("debits", () => {
    it("describes a purchase of goods PURCHASE, by default and when asked", async () => {
      expect((await transaction((await charged({})).uuid)).company_entry_description).toBe("PURCHASE");
      expect((await transaction((await charged({ transaction_purpose: "goods" })).uuid)).company_entry_description).toBe("PURCHASE");
    });

    it("describes services by the statement descriptor, or the name when there is none, and follows the profile's default purpose", async () => {
      expect((await patchProfile({ statement_descriptor: "acme subs" })).statusCode).toBe(200);
      expect((await transaction((await charged({ transaction_purpose: "services" })).uuid)).company_entry_description).toBe("ACME SUBS");
      const other = await stack.merchant("Globex Corporation");
      expect((await patchProfile({ default_transaction_purpose: "other" }, other.apiKey)).statusCode).toBe(200);
      expect((await transaction((await charged({}, other.apiKey)).uuid, other.apiKey)).company_entry_description).toBe("GLOBEX COR");
    });

    it("describes a subscription's renewals as its first debit, and the retry of an R01 RETRY PYMT", async () => {
      expect((await patchProfile({ statement_descriptor: "ACME SUBS" })).statusCode).toBe(200);
      const { id, uuid } = await charged({ is_subscription: true, plan_type: "monthly", transaction_purpose: "services" });
      await transaction(uuid);
      const advance = async (to: string) => {
        const reply = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
        expect(reply.statusCode, reply.body).toBe(200);
        return (reply.json() as TxRecord[]).sort((a, b) => a.id - b.id);
      };
      const [first] = await advance(new Date().toISOString());
      const due = (n: number) => periodStart((first as unknown as { transaction_date_time: string }).transaction_date_time, "monthly", n);
      const checkout = async () => (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: headers() })).json();
      await eventually(async () => expect(await checkout()).toMatchObject({ subscription_status: "active" }));
      const renewal = (await advance(due(1)))[1]!;
      const failed = await post(`/api/sandbox/transfers/${renewal.transaction_uuid}/simulate`, { status: "failed", failure_code: "R01" });
      expect(failed.statusCode).toBe(200);
      const retryAt = new Date(Date.parse(due(1)) + 3 * DAY_MS).toISOString();
      await eventually(async () => expect(await checkout()).toMatchObject({ subscription_status: "past_due", next_charge_at: retryAt }));
      const records = await advance(retryAt);
      expect(records.map((r) => r.company_entry_description)).toEqual(["ACME SUBS", "ACME SUBS", "RETRY PYMT"]);
    });
  });
});
