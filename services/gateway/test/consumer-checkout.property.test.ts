import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken, consumerToken } from "./support/bank-linking.ts";
import { expectNo5xx } from "./support/no-5xx.ts";

/**
 * Throws random bodies, paths and headers at the bank-linking routes: whatever arrives, the
 * answer is a 2xx or a 4xx in the API's error shape, never a 5xx.
 */
describe("bank-linking routes under random input", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let apiKey: string;
  let token: string;
  let mine: { id: string; linkToken: string };
  let other: { id: string; linkToken: string };
  let bankLinkToken: string;

  beforeAll(async () => {
    stack = await startStack(variant);
    apiKey = (await stack.merchant()).apiKey;
    token = (await consumerToken(stack, apiKey)).token;
    mine = await checkoutWithLinkToken(stack, apiKey);
    other = await checkoutWithLinkToken(stack, apiKey);
    const link = await stack.app.inject({
      method: "POST",
      url: `/api/consumers/checkout/${mine.id}/create_link_token`,
      headers: { authorization: `Token ${token}`, "link-token": mine.linkToken },
    });
    bankLinkToken = link.json().link_token;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  const jsonValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom("", " ", "\u0000", "public-sandbox-x", "x".repeat(600), null, [], {}, -1, 1e21),
  );
  const exchangeBody = fc.oneof(
    fc.record({ public_token: jsonValue, bankdata_account_id: jsonValue }, { requiredKeys: [] }),
    fc.record({ public_token: fc.string({ maxLength: 600 }), bankdata_account_id: fc.string({ maxLength: 300 }), extra: jsonValue }),
    jsonValue,
  );
  // Header values a client can actually send: printable ASCII.
  const header = fc.string({ maxLength: 80, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

  it("never answers 5xx to random exchange bodies", async () => {
    await fc.assert(
      fc.asyncProperty(exchangeBody, async (body) => {
        const reply = await stack.app.inject({
          method: "POST",
          url: `/api/consumers/checkout/${mine.id}/exchange_public_token`,
          payload: JSON.stringify(body),
          headers: { authorization: `Token ${token}`, "link-token": mine.linkToken, "content-type": "application/json" },
        });
        expectNo5xx(reply, body);
      }),
      { numRuns: 200 },
    );
  });

  it("never answers 5xx to random raw bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""),
        fc.constantFrom("create_link_token", "exchange_public_token"),
        async (payload, contentType, op) => {
          const reply = await stack.app.inject({
            method: "POST",
            url: `/api/consumers/checkout/${mine.id}/${op}`,
            payload,
            headers: { authorization: `Token ${token}`, "link-token": mine.linkToken, ...(contentType ? { "content-type": contentType } : {}) },
          });
          expectNo5xx(reply, { payload, contentType, op });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("never answers 5xx to random paths, methods and headers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        fc.constantFrom("create_link_token", "create_link_token/", "exchange_public_token", "exchange_public_token/"),
        fc.oneof(fc.constant("MINE"), fc.constant("OTHER"), fc.string({ maxLength: 70 }).map(encodeURIComponent)),
        fc.option(fc.oneof(fc.constant("REAL"), header, header.map((h) => `Token ${h}`), fc.constant("Bearer"))),
        fc.option(fc.oneof(fc.constant("MINE"), fc.constant("OTHER"), header)),
        async (method, op, idPart, auth, link) => {
          const id = idPart === "MINE" ? mine.id : idPart === "OTHER" ? other.id : idPart;
          const linkToken = link === "MINE" ? mine.linkToken : link === "OTHER" ? other.linkToken : link;
          const reply = await stack.app.inject({
            method,
            url: `/api/consumers/checkout/${id}/${op}`,
            headers: {
              ...(auth !== null ? { authorization: auth === "REAL" ? `Token ${token}` : auth } : {}),
              ...(linkToken !== null ? { "link-token": linkToken } : {}),
            },
            ...(method === "POST" && op.startsWith("exchange") ? { payload: { public_token: "public-sandbox-x", bankdata_account_id: "a" } } : {}),
          });
          expectNo5xx(reply, { method, op, id, auth, linkToken });
        },
      ),
      { numRuns: 250 },
    );
  });

  it("never answers 5xx to random sandbox public-token requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.record({ link_token: fc.oneof(jsonValue, fc.constant("REAL")) }, { requiredKeys: [] }), jsonValue),
        fc.oneof(fc.constant("REAL"), header),
        async (body, key) => {
          const payload = (body as { link_token?: unknown })?.link_token === "REAL" ? { link_token: bankLinkToken } : body;
          const reply = await stack.app.inject({
            method: "POST",
            url: "/api/sandbox/public_token",
            payload: JSON.stringify(payload),
            headers: { "api-key": key === "REAL" ? apiKey : key, "content-type": "application/json" },
          });
          expectNo5xx(reply, { payload, key });
        },
      ),
      { numRuns: 150 },
    );
  });
});
