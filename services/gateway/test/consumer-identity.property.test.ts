import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { expectNo5xx } from "./support/no-5xx.ts";

/**
 * Throws random bodies and headers at send_code, verify_code and logout: whatever arrives, the
 * answer is a 2xx or a 4xx in the API's error shape, never a 5xx.
 */
describe("consumer identity routes under random input", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack(variant);
    const phone = "+13125550100";
    await stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone } });
    const { apiKey } = await stack.merchant();
    const code = (await stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } })).json().code;
    token = (await stack.app.inject({ method: "POST", url: "/api/verify_user/verify_code", payload: { phone, verification_code: code } })).json().data.auth_token;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });


  // Phone-ish strings: real formats, near misses, unicode digits, huge and empty ones.
  const phoneish = fc.oneof(
    fc.constantFrom("+14155552671", "+1 (415) 555-2671", "+442071838750", "+15551234567", "+1555", "+", "++1", "+0", "+99999999999999999", "4155552671", "+1 415 555 2671 ext 1", "+١٤١٥٥٥٥٢٦٧١", "+1\u0000415", "tel:+14155552671", " ", ""),
    fc.string({ maxLength: 70 }),
    fc.stringMatching(/^\+[0-9 ()-]{0,30}$/),
  );
  const codeish = fc.oneof(fc.stringMatching(/^\d{6}$/), fc.constantFrom("000000", "999999", "12345", "1234567", " 123456 ", "١٢٣٤٥٦", ""), fc.string({ maxLength: 20 }));
  const anyJson = fc.jsonValue({ maxDepth: 3 });
  const body = fc.oneof(
    fc.record({ phone: fc.oneof(phoneish, anyJson), verification_code: fc.oneof(codeish, anyJson) }, { requiredKeys: [] }),
    fc.record({ phone_number: fc.oneof(phoneish, anyJson), code: fc.oneof(codeish, anyJson), isSandbox: anyJson }, { requiredKeys: [] }),
    fc.dictionary(fc.constantFrom("phone", "phone_number", "code", "verification_code", "__proto__", "constructor", "x"), anyJson),
    anyJson,
  );
  // Header values a client can actually send: printable ASCII.
  const header = fc.string({ maxLength: 80, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

  it("never answers 5xx to random send_code and verify_code bodies and headers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/verify_user/send_code", "/api/verify_user/verify_code", "/api/verify_user/send_code/", "/api/verify_user/verify_code/"),
        body,
        fc.option(header),
        fc.option(header),
        async (url, payload, authorization, apiKey) => {
          const reply = await stack.app.inject({
            method: "POST",
            url,
            payload: JSON.stringify(payload),
            headers: {
              "content-type": "application/json",
              ...(authorization !== null ? { authorization } : {}),
              ...(apiKey !== null ? { "api-key": apiKey } : {}),
            },
          });
          expectNo5xx(reply, { url, payload, authorization, apiKey });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never answers 5xx to random raw bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/verify_user/send_code", "/api/verify_user/verify_code", "/api/verify_user/logout"),
        fc.string({ maxLength: 200 }),
        fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", ""),
        async (url, payload, contentType) => {
          const reply = await stack.app.inject({ method: "POST", url, payload, headers: contentType ? { "content-type": contentType } : {} });
          expectNo5xx(reply, { url, payload, contentType });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("never answers 5xx to random Authorization headers and bodies on logout", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(header, fc.constantFrom("Token", "Bearer", "Token  ", `Token ${"A".repeat(43)}`, `Bearer ${"_".repeat(43)}`), fc.constant("SCHEME-TOKEN")),
        fc.constantFrom("Token ", "Bearer ", "", "token "),
        fc.option(anyJson),
        async (authorization, scheme, payload) => {
          // Revoking the one real token would make every later run a plain 401: keep it for the check below.
          const value = authorization === "SCHEME-TOKEN" ? `${scheme}${token}x` : authorization;
          const reply = await stack.app.inject({
            method: "POST",
            url: "/api/verify_user/logout",
            headers: { authorization: value, ...(payload !== null ? { "content-type": "application/json" } : {}) },
            ...(payload !== null ? { payload: JSON.stringify(payload) } : {}),
          });
          expectNo5xx(reply, { value, payload });
          expect(reply.statusCode, value).not.toBe(200);
        },
      ),
      { numRuns: 200 },
    );
    // The real token survived all that, and logs out once.
    expect((await stack.app.inject({ method: "POST", url: "/api/verify_user/logout", headers: { authorization: `Token ${token}` } })).statusCode).toBe(200);
  });
});
