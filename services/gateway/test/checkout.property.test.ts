import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { expectNo5xx } from "./support/no-5xx.ts";

/**
 * Throws random bodies, paths and headers at the checkout routes: whatever arrives, the answer
 * is a 2xx or a 4xx in the API's error shape, never a 5xx.
 */
describe("checkout routes under random input", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let apiKey: string;
  let checkoutId: string;

  beforeAll(async () => {
    stack = await startStack(variant);
    apiKey = (await stack.merchant()).apiKey;
    const created = await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: { "api-key": apiKey } });
    checkoutId = created.json().id;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });


  // Values of every JSON kind, including tricky numbers and strings.
  const jsonValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(-1, 0, 1e21, 1e-7, 0.1 + 0.2, 99999999.99, 100000000, "1.005", "", " ", "\u0000", "NaN", "Infinity", null, [], {}),
  );
  const mutatedCheckout = fc
    .record({
      key: fc.constantFrom(...Object.keys(sampleCheckout()), "amounts.total", "amounts.currency", "billing.phone_number", "items.0.quantity", "constructor", "__proto__"),
      value: jsonValue,
    })
    .map(({ key, value }) => {
      const body = sampleCheckout() as Record<string, unknown>;
      const [head, ...rest] = key.split(".");
      if (rest.length === 0) body[head!] = value;
      else {
        let target: Record<string, unknown> = body;
        for (const part of [head!, ...rest.slice(0, -1)]) target = target[part] as Record<string, unknown>;
        target[rest[rest.length - 1]!] = value;
      }
      return body;
    });

  it("never answers 5xx to random checkout bodies", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutatedCheckout, jsonValue), async (body) => {
        const reply = await stack.app.inject({
          method: "POST",
          url: "/api/merchants/checkout",
          payload: JSON.stringify(body),
          headers: { "api-key": apiKey, "content-type": "application/json" },
        });
        expectNo5xx(reply, body);
      }),
      { numRuns: 300 },
    );
  });

  it("never answers 5xx to random raw bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "", "application/json; charset=latin1"),
        async (payload, contentType) => {
          const reply = await stack.app.inject({
            method: "POST",
            url: "/api/merchants/checkout",
            payload,
            headers: { "api-key": apiKey, ...(contentType ? { "content-type": contentType } : {}) },
          });
          expectNo5xx(reply, { payload, contentType });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("never answers 5xx to random paths, queries and headers", async () => {
    // Header values a client can actually send: printable ASCII.
    const header = fc.string({ maxLength: 80, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/merchants/checkout", "/api/merchants/checkout/", `/api/merchants/checkout/CHK`, "/api/merchants/checkout/CHK/generate_link_token", "/api/merchants/checkout/CHK/generate_link_token/"),
        fc.oneof(fc.constant(""), fc.string({ maxLength: 40 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`), fc.constantFrom("?limit=-1", "?limit=abc", "?limit=100", "?starting_after=chk_x", "?limit=1&limit=2")),
        fc.oneof(fc.constant("REAL"), header),
        fc.oneof(fc.constant("CHECKOUT"), fc.string({ maxLength: 70 }).map(encodeURIComponent)),
        fc.option(header),
        async (path, query, key, idPart, requestId) => {
          const url = path.replace("CHK", idPart === "CHECKOUT" ? checkoutId : idPart) + query;
          const reply = await stack.app.inject({
            method: "GET",
            url,
            headers: { "api-key": key === "REAL" ? apiKey : key, ...(requestId !== null ? { "x-request-id": requestId } : {}) },
          });
          expectNo5xx(reply, { url, key, requestId });
        },
      ),
      { numRuns: 300 },
    );
  });
});
