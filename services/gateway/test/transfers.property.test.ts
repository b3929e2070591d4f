import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, WEBHOOK_SECRET, type Stack } from "../../../test/support/stack.ts";
import { expectNo5xx } from "./support/no-5xx.ts";
import { payment } from "./support/refund-flow.ts";
import { linkedCheckout } from "./support/payment-flow.ts";

const variants = await infraVariants();

/**
 * Throws random bodies, paths, queries, headers and webhook payloads (signed and not) at the
 * transfer routes: get_processor_token, the subscription log and cancel, the sandbox simulation
 * and the provider webhooks. Whatever arrives, never a 5xx.
 */
describe.each(variants)("transfer routes under random input over $name", (variant) => {
  let stack: Stack;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const merchant = await stack.merchant();
    real["KEY"] = merchant.apiKey;
    real["LINKED"] = (await linkedCheckout(stack, merchant.apiKey)).id;
    const paid = await payment(stack, merchant.apiKey, "pending");
    real["TOKEN"] = paid.consumer.token;
    real["UUID"] = paid.uuid;
    real["CHECKOUT"] = paid.checkoutId;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const fill = (v: unknown): unknown => (typeof v === "string" && v in real ? real[v] : v);
  const jsonValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom("", " ", "\u0000", "sc-", "chk_", "x".repeat(100), null, [], {}, -1, 1e21, "LINKED", "UUID", "CHECKOUT"),
  );
  const header = fc.string({ maxLength: 80, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const credential = fc.option(fc.oneof(fc.constantFrom("KEY", "TOKEN"), header));
  const credentialHeaders = (c: string | null) =>
    c === null ? {} : c === "TOKEN" ? { authorization: `Token ${real["TOKEN"]}` } : { "api-key": String(fill(c)), authorization: String(fill(c)) };

  describe.skipIf(!!variant.skipReason)("properties", () => {
    it("never answers 5xx to random merchant and consumer transfer requests", async () => {
      const route = fc.constantFrom(
        "POST /api/merchants/payment_preprocess/get_processor_token",
        "GET /api/merchants/manage_subscription/get_subscription_details",
        "POST /api/merchants/manage_subscription/subscription_cancel/",
      );
      const body = fc.oneof(
        fc.record({ checkout_id: jsonValue, subscription_transaction_uuid: jsonValue, extra: jsonValue }, { requiredKeys: [] }),
        jsonValue,
      );
      const query = fc.oneof(
        fc.constant(""),
        fc.constantFrom("?limit=0", "?limit=100", "?limit=x", "?checkout_id=1", "?checkout_id=chk_x", "?checkout_id=CHECKOUT"),
        header.map((h) => `?checkout_id=${encodeURIComponent(h)}`),
      );
      await fc.assert(
        fc.asyncProperty(route, body, query, credential, async (r, b, q, c) => {
          const [method, path] = r.split(" ") as ["GET" | "POST", string];
          const filled = b && typeof b === "object" && !Array.isArray(b) ? Object.fromEntries(Object.entries(b).map(([k, v]) => [k, fill(v)])) : fill(b);
          const reply = await stack.app.inject({
            method,
            url: path + (method === "GET" ? q.replace("CHECKOUT", real["CHECKOUT"]!) : ""),
            ...(method === "POST" ? { payload: JSON.stringify(filled), headers: { "content-type": "application/json", ...credentialHeaders(c) } } : { headers: credentialHeaders(c) }),
          });
          expectNo5xx(reply, { r, b, q, c });
        }),
        { numRuns: 250 },
      );
    });

    it("never answers 5xx to random sandbox simulations", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.constantFrom("UUID", "LINKED"), fc.string({ maxLength: 80 })),
          fc.oneof(fc.record({ status: fc.oneof(fc.constantFrom("completed", "failed", "pending"), jsonValue), failure_code: fc.oneof(fc.constantFrom("R01", "R99", "X"), jsonValue) }, { requiredKeys: [] }), jsonValue),
          credential,
          async (id, b, c) => {
            const reply = await stack.app.inject({
              method: "POST",
              url: `/api/sandbox/transfers/${encodeURIComponent(String(fill(id)))}/simulate`,
              payload: JSON.stringify(b),
              headers: { "content-type": "application/json", ...credentialHeaders(c) },
            });
            expectNo5xx(reply, { id, b, c });
          },
        ),
        { numRuns: 150 },
      );
    });

    it("never answers 5xx to random webhooks, signed or not", async () => {
      const event = fc.oneof(
        fc.record(
          { id: jsonValue, topic: fc.oneof(fc.constantFrom("customer_transfer_completed", "customer_transfer_failed", "customer_created"), jsonValue), _links: fc.oneof(jsonValue, fc.record({ resource: fc.record({ href: fc.oneof(fc.webUrl(), jsonValue) }) })) },
          { requiredKeys: [] },
        ),
        jsonValue,
      );
      const raw = fc.oneof(event.map((e) => JSON.stringify(e)), fc.string({ maxLength: 200 }));
      await fc.assert(
        fc.asyncProperty(raw, fc.constantFrom("valid", "wrong", "none"), fc.constantFrom("application/json", "text/plain", ""), async (payload, signing, contentType) => {
          const signature = signing === "valid" ? createHmac("sha256", WEBHOOK_SECRET).update(payload).digest("hex") : "ab".repeat(32);
          const reply = await stack.app.inject({
            method: "POST",
            url: "/api/webhooks/transfers",
            payload,
            headers: { ...(contentType ? { "content-type": contentType } : {}), ...(signing === "none" ? {} : { "x-request-signature-sha-256": signature }) },
          });
          expectNo5xx(reply, { payload, signing, contentType });
        }),
        { numRuns: 200 },
      );
    });
  });
});
