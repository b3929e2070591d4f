import { describe, expect, it } from "vitest";
import { asJson, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { withTwoMerchants } from "../../../test/support/stack.ts";

const variants = await infraVariants();

describe.each(variants)("merchant checkout endpoints over $name", (variant) => {
  const world = withTwoMerchants(variant);

  const post = (url: string, body: unknown, apiKey?: string, headers: Record<string, string> = {}) =>
    world.stack.app.inject({
      method: "POST",
      url,
      payload: body as Record<string, unknown>,
      headers: { ...(apiKey ? { "api-key": apiKey } : {}), ...headers },
    });
  const get = (url: string, apiKey?: string, headers: Record<string, string> = {}) =>
    world.stack.app.inject({ method: "GET", url, headers: { ...(apiKey ? { "api-key": apiKey } : {}), ...headers } });

  describe.skipIf(!!variant.skipReason)("flow", () => {
    it("runs the merchant steps: create, get (with and without trailing slash), link token", async () => {
      const body = sampleCheckout({ isSandbox: true });
      const created = await post("/api/merchants/checkout", body, world.acme.apiKey);
      expect(created.statusCode).toBe(200);
      const { id } = created.json();
      expect(created.json()).toEqual({ id: expect.stringMatching(/^chk_[0-9a-f]{32}$/) });
      // Over RabbitMQ the service's JSON is written on as it came: still JSON, so labelled.
      expect(created.headers["content-type"]).toBe("application/json; charset=utf-8");

      for (const url of [`/api/merchants/checkout/${id}`, `/api/merchants/checkout/${id}/`]) {
        const got = await get(url, world.acme.apiKey);
        expect(got.statusCode).toBe(200);
        expect(got.headers["content-type"]).toBe("application/json; charset=utf-8");
        const view = got.json();
        const { isSandbox: _ignored, ...sent } = asJson(body);
        expect(view).toMatchObject(sent);
        expect(view).not.toHaveProperty("isSandbox");
        expect(view).toMatchObject({ id, status: "open", subscription_status: "", transfer: null });
      }

      const link = await get(`/api/merchants/checkout/${id}/generate_link_token/`, world.acme.apiKey);
      expect(link.statusCode).toBe(200);
      expect(link.json()).toEqual({ link_token: expect.any(String), checkout_id: id, expiration: expect.any(String), url: expect.any(String) });
      // The hosted page (docs/api-notes.md, The hosted page, the dashboard and the portal), on the host the merchant called, the token in the fragment.
      expect(link.json().url).toBe(`http://localhost:80/pay/${id}#link_token=${encodeURIComponent(link.json().link_token)}`);
    });

    it("lists only the caller's checkouts", async () => {
      const { id } = (await post("/api/merchants/checkout", sampleCheckout(), world.globex.apiKey)).json();
      const mine = await get("/api/merchants/checkout?limit=100", world.globex.apiKey);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data.map((c: { id: string }) => c.id)).toContain(id);
      const theirs = await get("/api/merchants/checkout?limit=100", world.acme.apiKey);
      expect(theirs.json().data.map((c: { id: string }) => c.id)).not.toContain(id);
      expect((await get("/api/merchants/checkout?limit=0", world.acme.apiKey)).json().error).toMatchObject({ param: "limit" });
    });

    it("answers 404 for another merchant's checkout and 401 without a valid key", async () => {
      const { id } = (await post("/api/merchants/checkout", sampleCheckout(), world.acme.apiKey)).json();
      const foreign = await get(`/api/merchants/checkout/${id}`, world.globex.apiKey);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toMatchObject({ type: "not_found_error", code: "checkout_not_found" });

      const missing = await get(`/api/merchants/checkout/${id}`);
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toMatchObject({ type: "authentication_error", code: "api_key_missing" });
      const wrong = await get(`/api/merchants/checkout/${id}`, `sk_test_${"x".repeat(48)}`);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe("api_key_invalid");
    });

    it("gives one 200 and 49 409s to 50 concurrent creates with one merchant_checkout_id", async () => {
      const body = sampleCheckout();
      const replies = await Promise.all(Array.from({ length: 50 }, () => post("/api/merchants/checkout", body, world.acme.apiKey)));
      const codes = replies.map((r) => r.statusCode).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(49);
      const conflict = replies.find((r) => r.statusCode === 409)!.json();
      expect(conflict.error).toMatchObject({
        type: "conflict_error",
        code: "duplicate_merchant_checkout_id",
        param: "merchant_checkout_id",
      });
    });

    it("accepts optional fields sent as \"\" or null where they do not apply, and echoes them as sent", async () => {
      const blanks = {
        plan_type: "",
        shipping_method: null,
        platform: { platform_type: "", platform_version: null },
        billing: { ...(sampleCheckout().billing as object), address_2: "", area: null, phone_number: "" },
      };
      for (const [n, overrides] of [{ ...blanks }, { ...blanks, plan_type: null }].entries()) {
        const body = sampleCheckout({ ...overrides, is_subscription: false, merchant_checkout_id: `blank-${n}` });
        const created = await post("/api/merchants/checkout", body, world.acme.apiKey);
        expect(created.statusCode, created.body).toBe(200);
        const view = (await get(`/api/merchants/checkout/${created.json().id}`, world.acme.apiKey)).json();
        expect(view).toMatchObject(asJson(overrides));
      }
    });

    it("validates the body and names the first bad field", async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ amounts: { total: "12.345", subtotal: 1, tax: 0, shipping: 0, currency: "USD" } }, "amount_invalid", "amounts.total"],
        [{ amounts: { total: 0, subtotal: 0, tax: 0, shipping: 0, currency: "USD" } }, "amount_invalid", "amounts.total"],
        [{ amounts: { total: 5, subtotal: 5, tax: 0, shipping: 0, currency: "EUR" } }, "unsupported_currency", "amounts.currency"],
        [{ merchant_checkout_id: undefined }, "parameter_missing", "merchant_checkout_id"],
        [{ is_subscription: true }, "parameter_missing", "plan_type"],
        [{ plan_type: "fortnightly", is_subscription: true }, "parameter_invalid", "plan_type"],
        [{ plan_type: "", is_subscription: true }, "parameter_missing", "plan_type"],
        [{ plan_type: null, is_subscription: true }, "parameter_missing", "plan_type"],
        [{ plan_type: "fortnightly", is_subscription: false }, "parameter_invalid", "plan_type"],
        [{ redirect_confirm_url: "javascript:alert(1)" }, "parameter_invalid", "redirect_confirm_url"],
        [{ billing: { ...(sampleCheckout().billing as object), phone_number: "555" } }, "parameter_invalid", "billing.phone_number"],
      ];
      for (const [overrides, code, param] of cases) {
        const reply = await post("/api/merchants/checkout", sampleCheckout(overrides), world.acme.apiKey);
        expect(reply.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(reply.json().error).toMatchObject({ type: "invalid_request_error", code, param });
        expect(reply.json().error.message).not.toMatch(/invalid input/i);
      }
    });

    it("echoes a safe x-request-id and replaces an unsafe one", async () => {
      const kept = await get("/api/merchants/checkout", world.acme.apiKey, { "x-request-id": "abc-123" });
      expect(kept.headers["x-request-id"]).toBe("abc-123");
      const replaced = await get("/api/merchants/checkout/nope", world.acme.apiKey, { "x-request-id": "bad id\u0001" });
      expect(replaced.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      expect(replaced.json().error.request_id).toBe(replaced.headers["x-request-id"]);
    });
  });
});
