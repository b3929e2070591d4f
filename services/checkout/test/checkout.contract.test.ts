import {
  AppError,
  createCheckoutOp,
  generateLinkTokenOp,
  getCheckoutOp,
  listCheckoutsOp,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asJson, merchantPrincipal, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { uncheckedStore } from "@payrail/store/testing";
import { start } from "../src/index.ts";

const variants = await infraVariants();

describe.each(variants)("checkout service over $name", (variant) => {
  let client: Transport;
  const merchant = merchantPrincipal();
  const other = merchantPrincipal();
  const as = (principal: typeof merchant | typeof other) => ({ requestId: "req_test", principal });

  beforeAll(async () => {
    if (variant.skipReason) return;
    const serverTransport = await variant.transport();
    await start({ transport: serverTransport, store: await variant.store(), logger: silentLogger() });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const create = (body: Record<string, unknown>, who = merchant) =>
    client.call(createCheckoutOp, { checkout: body as never }, as(who));
  const failure = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("creates a checkout and echoes every sent key in the form it was sent", async () => {
      const body = sampleCheckout({ plan_type: "Monthly", is_subscription: true });
      const { id } = await create(body);
      expect(id).toMatch(/^chk_[0-9a-f]{32}$/);
      const view = await client.call(getCheckoutOp, { checkout_id: id }, as(merchant));
      const sent = asJson(body) as Record<string, unknown>;
      for (const [key, value] of Object.entries(sent)) {
        if (key === "plan_type") expect(view[key]).toBe("monthly");
        else expect(view[key], key).toEqual(value);
      }
      expect(view.amounts).toEqual({ total: 107.5, subtotal: "100.00", tax: 5, shipping: 2.5, discount_total: null, currency: "USD" });
      expect(view).toMatchObject({ id, status: "open", subscription_status: "", transfer: null });
      expect(view.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it("keeps the body as a sub-document, as text when it holds an array of arrays, and reads checkouts stored with text bodies", async () => {
      const store = uncheckedStore(await variant.store());
      const checkouts = store.collection<{ _id: string; body?: unknown; bodyJson?: string }>("checkouts");
      const plain = sampleCheckout({ items: [{ name: "Mug", sku: "m-1", quantity: 1, image: "https://shop.example/m.png" }] });
      const nested = sampleCheckout(); // its item has a category: an array of arrays
      const [a, b] = [await create(plain), await create(nested)];
      const [docA, docB] = [await checkouts.findOne({ _id: a.id }), await checkouts.findOne({ _id: b.id })];
      expect(docA?.body).toMatchObject({ merchant_checkout_id: plain.merchant_checkout_id, billing: asJson(plain.billing) });
      expect(docA?.bodyJson).toBeUndefined();
      expect(docB?.body).toBeUndefined();
      expect(JSON.parse(docB?.bodyJson ?? "null")).toMatchObject({ merchant_checkout_id: nested.merchant_checkout_id, items: asJson(nested.items) });
      // A checkout written before bodies were sub-documents: its body as JSON text only.
      await checkouts.findOneAndUpdate({ _id: a.id }, { $set: { bodyJson: JSON.stringify(asJson(plain)) }, $unset: { body: "" } });
      for (const [{ id }, sent] of [[a, plain], [b, nested]] as const) {
        const view = await client.call(getCheckoutOp, { checkout_id: id }, as(merchant));
        for (const [key, value] of Object.entries(asJson(sent) as Record<string, unknown>)) expect(view[key], key).toEqual(value);
      }
    });

    it("keeps the merchant's own created_at and ignores a sent subscription_status", async () => {
      const { id } = await create(sampleCheckout({ created_at: "2024-01-02T03:04:05Z", subscription_status: "active" }));
      const view = await client.call(getCheckoutOp, { checkout_id: id }, as(merchant));
      expect(view.created_at).toBe("2024-01-02T03:04:05Z");
      expect(view.subscription_status).toBe("");
    });

    it("hides one merchant's checkout from another", async () => {
      const { id } = await create(sampleCheckout());
      const err = await failure(client.call(getCheckoutOp, { checkout_id: id }, as(other)));
      expect(err.code).toBe("checkout_not_found");
      const list = await client.call(listCheckoutsOp, { limit: 100 }, as(other));
      expect(list.data.map((c) => c.id)).not.toContain(id);
      const link = await failure(client.call(generateLinkTokenOp, { checkout_id: id }, as(other)));
      expect(link.code).toBe("checkout_not_found");
    });

    it("accepts one of 50 concurrent creates with the same merchant_checkout_id", async () => {
      const body = sampleCheckout();
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => create(body)));
      const ok = results.filter((r) => r.status === "fulfilled");
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(ok).toHaveLength(1);
      expect(rejected).toHaveLength(49);
      for (const r of rejected) expect((r.reason as AppError).code).toBe("duplicate_merchant_checkout_id");
      // Another merchant may use the same id of its own.
      await expect(create(body, other)).resolves.toMatchObject({ id: expect.stringMatching(/^chk_/) });
    });

    it("lists the merchant's checkouts newest first with a cursor", async () => {
      const m = merchantPrincipal();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await create(sampleCheckout(), m)).id);
      const first = await client.call(listCheckoutsOp, { limit: 2 }, as(m));
      expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
      expect(first.has_more).toBe(true);
      const rest = await client.call(listCheckoutsOp, { limit: 10, starting_after: ids[3] }, as(m));
      expect(rest.data.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
      expect(rest.has_more).toBe(false);
      const bad = await failure(client.call(listCheckoutsOp, { limit: 2, starting_after: `chk_${"0".repeat(32)}` }, as(m)));
      expect(bad).toMatchObject({ code: "parameter_invalid", param: "starting_after" });
    });

    it("issues a fresh link token per call, valid for 24 hours", async () => {
      const { id } = await create(sampleCheckout());
      const a = await client.call(generateLinkTokenOp, { checkout_id: id }, as(merchant));
      const b = await client.call(generateLinkTokenOp, { checkout_id: id }, as(merchant));
      expect(a.checkout_id).toBe(id);
      expect(a.link_token).not.toBe(b.link_token);
      expect(Buffer.from(a.link_token, "base64url").length).toBeGreaterThanOrEqual(32);
      const hours = (Date.parse(a.expiration) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
    });

    it("refuses callers that are not merchants", async () => {
      const err = await failure(
        client.call(createCheckoutOp, { checkout: sampleCheckout() as never }, { requestId: "r", principal: { kind: "user", userId: "u", phone: "+15555550100" } }),
      );
      expect(err.code).toBe("permission_denied");
    });

    it("rejects an invalid payload with the first bad field", async () => {
      const err = await failure(create(sampleCheckout({ amounts: { total: "1.234", subtotal: 1, tax: 0, shipping: 0, currency: "USD" } })));
      expect(err).toMatchObject({ code: "amount_invalid", param: "checkout.amounts.total" });
    });
  });
});
