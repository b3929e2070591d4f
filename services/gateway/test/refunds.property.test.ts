import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken, randomPhone } from "./support/bank-linking.ts";
import { expectNo5xx } from "./support/no-5xx.ts";
import { payment, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();
const ROUTES = ["consumer_refund_request", "consumer_refund_list", "merchant_status_refund_request", "initiate_refund_transfer"] as const;

/**
 * Throws random bodies, paths and headers at the four refund routes: whatever arrives, the
 * answer is a 2xx or a 4xx in the API's error shape, never a 5xx.
 */
describe.each(variants)("refund routes under random input over $name", (variant) => {
  let stack: Stack;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const merchant = await stack.merchant();
    real["KEY"] = merchant.apiKey;
    const pending = await payment(stack, merchant.apiKey, "pending");
    real["TOKEN"] = pending.consumer.token;
    real["UUID"] = pending.uuid;
    real["PENDING_REFUND"] = (await requested(stack, pending)).id;
    const settled = await payment(stack, merchant.apiKey, "completed");
    const approved = await requested(stack, settled);
    await stack.app.inject({
      method: "POST",
      url: "/api/merchants/refund_request/merchant_status_refund_request",
      payload: { id: approved.id, status: "Approved" },
      headers: { "api-key": merchant.apiKey },
    });
    real["APPROVED_REFUND"] = approved.id;
    const phone = randomPhone();
    await stack.app.inject({ method: "POST", url: `/api/admin/merchants/${merchant.id}/operators`, payload: { phone }, headers: { "x-admin-token": ADMIN_TOKEN } });
    real["OPERATOR"] = (await consumerToken(stack, merchant.apiKey, phone)).token;
    real["MERCHANT"] = merchant.id;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  /** A placeholder is swapped for the real value it names; anything else is sent as is. */
  const fill = (v: unknown): unknown => (typeof v === "string" && v in real ? real[v] : v);
  const jsonValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom("", " ", "\u0000", "rfd_", "x".repeat(100), "Approved", "REJECTED", "approved", null, [], {}, -1, 1e21),
    fc.constantFrom("UUID", "PENDING_REFUND", "APPROVED_REFUND"),
  );
  // Mostly bodies that get past validation, so the services' own checks are exercised too.
  const plausible = fc.record({
    id: fc.oneof(fc.constantFrom("PENDING_REFUND", "APPROVED_REFUND", `rfd_${"0".repeat(32)}`), fc.string({ maxLength: 70 })),
    status: fc.oneof(fc.constantFrom("Approved", "Rejected", "approved", "APPROVED", "rejected"), fc.string({ maxLength: 10 })),
    transaction_uuid: fc.oneof(fc.constant("UUID"), fc.string({ maxLength: 70 })),
    reason: fc.option(fc.string({ maxLength: 1100 }), { nil: undefined }),
    amount: fc.option(
      fc.oneof(fc.constantFrom("0.01", "1.00", "107.50", "107.51", 50, 0, -1, "1e3", "99999999.99", 1e21, null), fc.double(), fc.string({ maxLength: 12 })),
      { nil: undefined },
    ),
  });
  const body = fc.oneof(
    { arbitrary: plausible, weight: 3 },
    {
      arbitrary: fc.record({ id: jsonValue, status: jsonValue, transaction_uuid: jsonValue, reason: jsonValue, amount: jsonValue, extra: jsonValue }, { requiredKeys: [] }),
      weight: 1,
    },
    { arbitrary: jsonValue, weight: 1 },
  );
  // Header values a client can actually send: printable ASCII.
  const header = fc.string({ maxLength: 80, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const credential = (placeholders: string[]) => fc.option(fc.oneof(fc.constantFrom(...placeholders), header));
  const filled = (b: unknown) => (b && typeof b === "object" && !Array.isArray(b) ? Object.fromEntries(Object.entries(b).map(([k, v]) => [k, fill(v)])) : fill(b));

  describe.skipIf(!!variant.skipReason)("properties", () => {
    it("never answers 5xx to random bodies and credentials", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ROUTES), body, credential(["KEY"]), credential(["TOKEN", "OPERATOR"]), async (route, b, key, auth) => {
          const token = fill(auth) as string | null;
          const reply = await stack.app.inject({
            method: route === "consumer_refund_list" ? "GET" : "POST",
            url: `/api/merchants/refund_request/${route}`,
            ...(route === "consumer_refund_list" ? {} : { payload: JSON.stringify(filled(b)) }),
            headers: {
              "content-type": "application/json",
              ...(key !== null ? { "api-key": fill(key) as string } : {}),
              ...(token !== null ? { authorization: token.length > 40 ? `Token ${token}` : token } : {}),
            },
          });
          expectNo5xx(reply, { route, b, key, auth });
        }),
        { numRuns: 250 },
      );
    });

    it("never answers 5xx to random raw bodies, content types, methods, paths and queries", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("GET", "POST", "PUT", "DELETE"),
          fc.constantFrom(...ROUTES.flatMap((r) => [r, `${r}/`])),
          fc.oneof(fc.constant(""), fc.constantFrom("?limit=0", "?limit=101", "?limit=abc", "?limit=5", "?limit=1&limit=2"), header.map((h) => `?${encodeURIComponent(h)}`)),
          fc.string({ maxLength: 200 }),
          fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""),
          fc.constantFrom("TOKEN", "KEY", "OPERATOR"),
          async (method, route, query, payload, contentType, who) => {
            const headers = who === "KEY" ? { "api-key": real["KEY"]! } : { authorization: `Token ${real[who]}` };
            const reply = await stack.app.inject({
              method,
              url: `/api/merchants/refund_request/${route}${query}`,
              ...(method === "GET" ? {} : { payload }),
              headers: { ...headers, ...(contentType ? { "content-type": contentType } : {}) },
            });
            expectNo5xx(reply, { method, route, query, payload, contentType, who });
          },
        ),
        { numRuns: 200 },
      );
    });

    it("never answers 5xx to the merchant refund list, one refund, and the operator admin routes under random paths and queries", async () => {
      const segment = fc.oneof(fc.constantFrom("PENDING_REFUND", "MERCHANT", `rfd_${"0".repeat(32)}`, "%2B14155550000", "14155550000", "%00", ".."), header);
      const query = fc.oneof(
        fc.constant(""),
        fc.constantFrom("?status=failed", "?status=nope", "?limit=0", "?limit=100", "?starting_after=rfd_x", `?starting_after=rfd_${"0".repeat(32)}`, "?transaction_uuid="),
        header.map((h) => `?${encodeURIComponent(h)}`),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("refunds", "refund", "operators", "operator"),
          segment,
          query,
          fc.constantFrom("GET", "DELETE", "POST"),
          async (route, rawSegment, q, method) => {
            const part = encodeURIComponent(String(fill(rawSegment)));
            const url = {
              refunds: `/api/merchants/refunds${q}`,
              refund: `/api/merchants/refunds/${part}${q}`,
              operators: `/api/admin/merchants/${real["MERCHANT"]}/operators${q}`,
              operator: `/api/admin/merchants/${part}/operators/${part}`,
            }[route];
            const headers = route.startsWith("operator") ? { "x-admin-token": ADMIN_TOKEN } : { "api-key": real["KEY"]! };
            const reply = await stack.app.inject({ method, url, headers, ...(method === "POST" ? { payload: {} } : {}) });
            expectNo5xx(reply, { route, rawSegment, q, method });
          },
        ),
        { numRuns: 200 },
      );
    });
  });
});
