import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { payment, type Payment } from "./support/refund-flow.ts";

const variants = await infraVariants();

/**
 * Amount forms as raw JSON text: a JSON number's spelling (`-0.0`, `5.10`) is lost once parsed,
 * so bodies are written by hand around them.
 */
const ACCEPTED = ['"5"', '"5.1"', '"5.10"', '"0.50"', "5", "5.1", "5.10", "0.5", "1E1"];
const REFUSED = ['" 5 "', '"00005.00"', '"05"', '"-0"', '"-0.0"', '"+5"', '"5."', '".5"', '"5.123"', '"1e1"', '"5,00"', "-0.0", "-0", "-5", "5.123", "1e-7", "1e21", "null", "true", '["5"]', '{"value":5}'];

/** `body` as JSON with the placeholder string replaced by the raw JSON text `amount`. */
const withAmount = (body: Record<string, unknown>, amount: string) => JSON.stringify(body).replace('"AMOUNT"', amount);

describe.each(variants)("amounts over HTTP over $name", (variant) => {
  let stack: Stack;
  let apiKey: string;
  let paid: Payment;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    apiKey = (await stack.merchant("Amounts")).apiKey;
    paid = await payment(stack, apiKey, "completed");
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const createCheckout = (payload: string) =>
    stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload, headers: { "api-key": apiKey, "content-type": "application/json" } });
  const requestRefund = (payload: string) =>
    stack.app.inject({
      method: "POST",
      url: "/api/merchants/refund_request/consumer_refund_request",
      payload,
      headers: { authorization: `Token ${paid.consumer.token}`, "content-type": "application/json" },
    });
  const checkoutWith = (field: string, amount: string) => {
    const body = sampleCheckout();
    return withAmount({ ...body, amounts: { ...(body.amounts as object), [field]: "AMOUNT" } }, amount);
  };

  describe.skipIf(!!variant.skipReason)("Create Checkout", () => {
    it.each(ACCEPTED)("takes %s and echoes it as it was sent", async (amount) => {
      for (const field of ["total", "tax", "discount_total"]) {
        const created = await createCheckout(checkoutWith(field, amount));
        expect(created.statusCode, `${field} ${amount}: ${created.body}`).toBe(200);
        const shown = await stack.app.inject({ url: `/api/merchants/checkout/${created.json().id}`, headers: { "api-key": apiKey } });
        expect(shown.json().amounts[field], field).toStrictEqual(JSON.parse(amount));
      }
    });

    it.each(REFUSED)("answers %s 400 amount_invalid naming the field", async (amount) => {
      for (const field of ["total", "subtotal", "tax", "shipping", "discount_total"]) {
        if (field === "discount_total" && amount === "null") continue;
        const refused = await createCheckout(checkoutWith(field, amount));
        expect(refused.statusCode, `${field} ${amount}`).toBe(400);
        expect(refused.json().error).toMatchObject({ type: "invalid_request_error", code: "amount_invalid", param: `amounts.${field}`, request_id: expect.any(String) });
      }
    });
  });

  describe.skipIf(!!variant.skipReason)("a partial refund's amount", () => {
    it.each(REFUSED)("answers %s 400 amount_invalid naming amount", async (amount) => {
      const refused = await requestRefund(withAmount({ transaction_uuid: paid.uuid, amount: "AMOUNT" }, amount));
      expect(refused.statusCode, amount).toBe(400);
      expect(refused.json().error).toMatchObject({ type: "invalid_request_error", code: "amount_invalid", param: "amount", request_id: expect.any(String) });
    });

    it("takes each accepted form for the amount it says", async () => {
      for (const amount of ['"0.50"', "0.5", '"1.1"', "1.10"]) {
        const taken = await requestRefund(withAmount({ transaction_uuid: paid.uuid, amount: "AMOUNT" }, amount));
        expect(taken.statusCode, `${amount}: ${taken.body}`).toBe(200);
        expect(taken.json().refund.amount).toBe(Number(JSON.parse(amount)));
      }
    });
  });
});
