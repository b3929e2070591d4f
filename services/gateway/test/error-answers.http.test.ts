import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { buildApp } from "../src/index.ts";
import { startServices } from "../../../bin/wiring.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerToken } from "./support/bank-linking.ts";

/** Issue "Every failure gets the right answer": status, the error body (docs/api-notes.md, Answers and errors) and headers on every path. */

type Reply = { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string };

/** The error body (docs/api-notes.md, Answers and errors): exactly these keys, a request id that matches the header. */
function expectErrorShape(reply: Reply, status: number, code: string): void {
  expect(reply.statusCode, reply.body).toBe(status);
  const body = reply.json() as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).every((k) => ["type", "code", "message", "request_id", "param"].includes(k))).toBe(true);
  expect(body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(body.error.request_id).toBe(reply.headers["x-request-id"]);
}

describe("error answers on the embedded stack", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startStack(variant, { apiKeyCacheMs: 0 });
    apiKey = (await stack.merchant()).apiKey;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  describe("router errors keep the error shape and never echo the URL", () => {
    it("answers 400 invalid_request to malformed percent-encoding (FST_ERR_BAD_URL)", async () => {
      const reply = await stack.app.inject({ url: "/api/merchants/checkout/%ff%fe", headers: { "api-key": apiKey } });
      expectErrorShape(reply, 400, "invalid_request");
      expect(reply.body).not.toContain("%ff");
      expect(reply.headers["x-content-type-options"]).toBe("nosniff");
      expect(reply.headers["cache-control"]).toBe("no-store");
    });

    it("answers 414 uri_too_long to an over-long path parameter (FST_ERR_MAX_PARAM_LENGTH)", async () => {
      const long = `chk_${"a".repeat(300)}marker`;
      const reply = await stack.app.inject({ url: `/api/merchants/checkout/${long}`, headers: { "api-key": apiKey } });
      expectErrorShape(reply, 414, "uri_too_long");
      expect(reply.body).not.toContain("marker");
    });

    it("answers 404 (405 for a known path) without quoting the path, for unknown paths and unknown methods", async () => {
      for (const [method, url, status, code] of [
        ["GET", "/api/nope/secret-path-marker", 404, "route_not_found"],
        ["DELETE", "/api/merchants/checkout", 405, "method_not_allowed"],
        ["PATCH", "/nowhere-marker", 404, "route_not_found"],
      ] as const) {
        const reply = await stack.app.inject({ method, url });
        expectErrorShape(reply, status, code);
        expect(reply.body, url).not.toContain("marker");
        expect(reply.body, url).not.toContain("/api/");
      }
    });

    it("answers 413 and 415 in the error shape", async () => {
      const post = (payload: string, contentType: string) =>
        stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload, headers: { "api-key": apiKey, "content-type": contentType } });
      expectErrorShape(await post("x".repeat(70 * 1024), "application/json"), 413, "body_too_large");
      expectErrorShape(await post("a=1", "application/x-www-form-urlencoded"), 415, "unsupported_media_type");
    });
  });

  describe("validation speaks the API's words", () => {
    it("says what a field must be, never the schema library's wording", async () => {
      const cases: [string, string][] = [
        ["/api/merchants/checkout?limit=abc", "limit must be a number"],
        ["/api/merchants/checkout?limit=0", "limit must be at least 1"],
        ["/api/merchants/events?limit=2.5", "limit must be a whole number"],
      ];
      for (const [url, message] of cases) {
        const reply = await stack.app.inject({ url, headers: { "api-key": apiKey } });
        expectErrorShape(reply, 400, "parameter_invalid");
        expect((reply.json() as { error: { message: string; param: string } }).error, url).toMatchObject({ message, param: "limit" });
      }
      const body = await stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone: 4155552676 } });
      expectErrorShape(body, 400, "parameter_invalid");
      expect((body.json() as { error: { message: string } }).error.message).toBe("phone must be a string");
    });
  });

  describe("a consumer token on a merchant-only route", () => {
    it("answers 403 permission_denied when the token is a valid consumer token", async () => {
      const { token } = await consumerToken(stack, apiKey);
      const reply = await stack.app.inject({ url: "/api/merchants/checkout", headers: { authorization: `Token ${token}` } });
      expectErrorShape(reply, 403, "permission_denied");
      expect((reply.json() as { error: { type: string } }).error.type).toBe("permission_error");
    });

    it("stays 401 api_key_missing with no credential, or with a token that is not valid", async () => {
      expectErrorShape(await stack.app.inject({ url: "/api/merchants/checkout" }), 401, "api_key_missing");
      const invalid = await stack.app.inject({ url: "/api/merchants/checkout", headers: { authorization: "Token not-a-real-token" } });
      expectErrorShape(invalid, 401, "api_key_missing");
    });

    it("keeps a wrong api-key a 401 even beside a valid consumer token", async () => {
      const { token } = await consumerToken(stack, apiKey);
      const reply = await stack.app.inject({
        url: "/api/merchants/checkout",
        headers: { authorization: token, "api-key": `sk_test_${"x".repeat(48)}` },
      });
      expectErrorShape(reply, 401, "api_key_invalid");
    });
  });

  describe("security headers", () => {
    it("marks API responses nosniff, no-referrer and no-store, success and error alike, without HSTS on http", async () => {
      for (const headers of [{ "api-key": apiKey }, {}]) {
        const reply = await stack.app.inject({ url: "/api/merchants/checkout", headers });
        expect(reply.headers["x-content-type-options"]).toBe("nosniff");
        expect(reply.headers["referrer-policy"]).toBe("no-referrer");
        expect(reply.headers["cache-control"]).toBe("no-store");
        expect(reply.headers["strict-transport-security"]).toBeUndefined();
      }
      // An untrusted X-Forwarded-Proto does not turn HSTS on.
      const forwarded = await stack.app.inject({ url: "/healthz", headers: { "x-forwarded-proto": "https" } });
      expect(forwarded.headers["strict-transport-security"]).toBeUndefined();
    });

    it("leaves caching of non-API responses alone", async () => {
      const reply = await stack.app.inject("/healthz");
      expect(reply.headers["x-content-type-options"]).toBe("nosniff");
      expect(reply.headers["cache-control"]).toBeUndefined();
    });

    it("gives /docs a CSP that swagger-ui can run under and no site can frame", async () => {
      const page = await stack.app.inject("/docs/");
      expect(page.statusCode).toBe(200);
      const csp = String(page.headers["content-security-policy"]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      // The page's scripts are files under /docs (allowed by script-src 'self'), none inline.
      expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
      const script = await stack.app.inject("/docs/static/swagger-ui-bundle.js");
      expect(script.statusCode).toBe(200);
      expect(script.headers["content-type"]).toContain("javascript");
      // The JSON API needs no CSP of its own.
      expect((await stack.app.inject("/healthz")).headers["content-security-policy"]).toBeUndefined();
    });
  });
});

describe("HSTS behind a trusted proxy", () => {
  it("is sent when the trusted proxy says the request came over https, and only then", async () => {
    const { createInProcessBus, createInProcessTransport } = await import("@payrail/messaging");
    const transport = await createInProcessTransport({ logger: silentLogger(), bus: createInProcessBus() });
    const app = await buildApp({ transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 100, services: [], sandbox: false, trustProxy: true });
    const https = await app.inject({ url: "/healthz", headers: { "x-forwarded-proto": "https" } });
    expect(https.headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
    expect((await app.inject("/healthz")).headers["strict-transport-security"]).toBeUndefined();
    await app.close();
    await transport.close();
  });
});

describe("database down", () => {
  it("answers 503 service_unavailable with Retry-After, never 500, once the store is closed", async () => {
    const variant = embeddedVariant();
    const transport = await variant.transport();
    const store = await variant.store();
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    await startServices(["identity", "checkout"], { config, logger: silentLogger(), transport, store });
    const app = await buildApp({ transport: await variant.transport(), logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 100, services: ["identity", "checkout"], sandbox: true });
    await store.close();

    const reply = await app.inject({ url: "/api/merchants/checkout", headers: { "api-key": `sk_test_${"a".repeat(48)}` } });
    expectErrorShape(reply, 503, "service_unavailable");
    expect((reply.json() as { error: { type: string } }).error.type).toBe("api_error");
    expect(Number(reply.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(reply.body).not.toContain("store");
    await app.close();
    await variant.cleanup();
  });
});
