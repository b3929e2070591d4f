import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/index.ts";
import { createInProcessBus, createInProcessTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";

describe("HTTP basics on the embedded stack", () => {
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

  const create = (payload: string | Buffer, contentType?: string) =>
    stack.app.inject({
      method: "POST",
      url: "/api/merchants/checkout",
      payload,
      headers: { "api-key": apiKey, ...(contentType ? { "content-type": contentType } : {}) },
    });

  it("answers 415 to a body that is not JSON", async () => {
    const reply = await create("amounts=1", "text/plain");
    expect(reply.statusCode).toBe(415);
    expect(reply.json().error).toMatchObject({ type: "invalid_request_error", code: "unsupported_media_type" });
  });

  it("answers 400 invalid_json to broken JSON", async () => {
    for (const payload of ["{", '{"a":', "nul", '{"a":1}}']) {
      const reply = await create(payload, "application/json");
      expect(reply.statusCode, payload).toBe(400);
      expect(reply.json().error.code, payload).toBe("invalid_json");
    }
  });

  it("answers 400 to JSON that is not an object", async () => {
    for (const payload of ["[]", "42", '"text"', "null"]) {
      const reply = await create(payload, "application/json");
      expect(reply.statusCode, payload).toBe(400);
      expect(["invalid_request", "parameter_missing"]).toContain(reply.json().error.code);
    }
  });

  it("answers 413 to a body over 64 KiB", async () => {
    const big = JSON.stringify(sampleCheckout({ shipping_method: "x".repeat(70 * 1024) }));
    const reply = await create(big, "application/json");
    expect(reply.statusCode).toBe(413);
    expect(reply.json().error.code).toBe("body_too_large");
  });

  it("answers 404 in the error shape for unknown routes", async () => {
    const reply = await stack.app.inject({ method: "GET", url: "/api/nope" });
    expect(reply.statusCode).toBe(404);
    expect(reply.json().error).toMatchObject({ type: "not_found_error", code: "route_not_found" });
  });

  it("serves healthz, readyz, metrics, openapi.json and docs", async () => {
    expect((await stack.app.inject("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await stack.app.inject("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: "ready", checks: { broker: "ok", checkout: "ok", identity: "ok" } });
    const metrics = await stack.app.inject("/metrics");
    expect(metrics.body).toContain("payrail_http_requests_total");
    const spec = (await stack.app.inject("/openapi.json")).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.paths["/api/merchants/checkout"].post.requestBody).toBeDefined();
    expect(Object.keys(spec.paths)).toContain("/api/merchants/checkout/{checkout_id}/generate_link_token");
    const docs = await stack.app.inject("/docs/");
    expect(docs.statusCode).toBe(200);
    expect(docs.headers["content-type"]).toContain("text/html");
    // What /docs renders has no server menu (Try-it calls this gateway) and Try-it's example id (docs-try-it.ts).
    const rendered = (await stack.app.inject("/docs/json")).json();
    expect(spec.servers).toEqual([{ url: "/", description: "This gateway" }]);
    expect(rendered.servers).toBeUndefined();
    expect(rendered.paths["/api/merchants/checkout"].post.requestBody.content["application/json"].example.merchant_checkout_id).toMatch(/^docs-try-[0-9a-f]{8}$/);
  });

  it("serves the icon browsers ask for, a PNG in an ICO, left out of the API's document", async () => {
    const icon = await stack.app.inject("/favicon.ico");
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/x-icon");
    expect(icon.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    expect(icon.rawPayload.subarray(22, 26).toString("latin1")).toBe("\x89PNG");
    expect(Object.keys((await stack.app.inject("/openapi.json")).json().paths)).not.toContain("/favicon.ico");
  });

  it("ignores headers an endpoint does not use", async () => {
    const reply = await stack.app.inject({
      method: "GET",
      url: "/api/merchants/checkout",
      headers: { "api-key": apiKey, authorization: "Token not-a-real-token", "link-token": "%%%" },
    });
    expect(reply.statusCode).toBe(200);
  });

  describe("admin routes", () => {
    const admin = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, token: string | null = ADMIN_TOKEN) =>
      stack.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { "x-admin-token": token } : {} });

    it("need the admin token", async () => {
      expect((await admin("POST", "/api/admin/merchants", { name: "X" }, null)).statusCode).toBe(401);
      const wrong = await admin("POST", "/api/admin/merchants", { name: "X" }, "guess");
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe("admin_token_invalid");
    });

    it("create a merchant, issue a second key, and revoke the first", async () => {
      const created = await admin("POST", "/api/admin/merchants", { name: "Initech" });
      expect(created.statusCode).toBe(200);
      const { merchant, api_key, key_prefix } = created.json();
      expect(merchant.id).toMatch(/^mer_[0-9a-f]{32}$/);
      expect(api_key).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
      expect(api_key.startsWith(key_prefix)).toBe(true);

      const second = await admin("POST", `/api/admin/merchants/${merchant.id}/generate_api_key`);
      expect(second.statusCode).toBe(200);
      const newKey = second.json().api_key;

      const list = (key: string) => stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": key } });
      expect((await list(api_key)).statusCode).toBe(200);
      expect((await list(newKey)).statusCode).toBe(200);

      const revoked = await admin("DELETE", `/api/admin/merchants/${merchant.id}/api_keys/${key_prefix}`);
      expect(revoked.statusCode).toBe(200);
      // The cache is off in this stack, so the revocation holds at once.
      expect((await list(api_key)).statusCode).toBe(401);
      expect((await list(newKey)).statusCode).toBe(200);
      expect((await admin("DELETE", `/api/admin/merchants/${merchant.id}/api_keys/sk_test_nothere`)).statusCode).toBe(404);
    });

    it("change a merchant's funding sources: the fields sent, null clearing one, the rest kept", async () => {
      const balance = "https://api.dwolla.com/funding-sources/initrode-balance";
      const oldBank = "https://api.dwolla.com/funding-sources/initrode-bank";
      const newBank = "https://api.dwolla.com/funding-sources/initrode-new-bank";
      const { merchant } = (await admin("POST", "/api/admin/merchants", { name: "Initrode", destination_funding_source: balance, payout_funding_source: oldBank })).json();
      const patch = (payload: object) => admin("PATCH", `/api/admin/merchants/${merchant.id}`, payload);
      const stored = async () => ((await admin("GET", "/api/admin/merchants?limit=1000")).json().data as { id: string }[]).find((m) => m.id === merchant.id);

      const moved = await patch({ payout_funding_source: newBank });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toEqual({ ...merchant, payout_funding_source: newBank });
      expect(await stored()).toEqual(moved.json());

      const cleared = await patch({ destination_funding_source: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json()).toMatchObject({ destination_funding_source: null, payout_funding_source: newBank });
      // Nothing sent, or the values it has: the merchant as it is.
      for (const same of [{}, { payout_funding_source: newBank, destination_funding_source: null }]) {
        const unchanged = await patch(same);
        expect(unchanged.statusCode, unchanged.body).toBe(200);
        expect(unchanged.json()).toEqual(cleared.json());
      }
      expect(await stored()).toEqual(cleared.json());
    });

    it("refuse a bad funding source, a bad id and a missing admin token, and answer 404 for an unknown merchant", async () => {
      const { merchant } = (await admin("POST", "/api/admin/merchants", { name: "Vandelay" })).json();
      const path = `/api/admin/merchants/${merchant.id}`;
      const bad: [object, string][] = [
        [{ payout_funding_source: "not a url" }, "payout_funding_source"],
        [{ destination_funding_source: `https://api.dwolla.com/${"x".repeat(2048)}` }, "destination_funding_source"],
        [{ payout_funding_source: 42 }, "payout_funding_source"],
        [{ destination_funding_source: ["https://api.dwolla.com/funding-sources/a"] }, "destination_funding_source"],
      ];
      for (const [payload, param] of bad) {
        const reply = await admin("PATCH", path, payload);
        expect(reply.statusCode, JSON.stringify(payload)).toBe(400);
        expect(reply.json().error, JSON.stringify(payload)).toMatchObject({ type: "invalid_request_error", param });
      }
      const badId = await admin("PATCH", "/api/admin/merchants/mer_nope", { payout_funding_source: null });
      expect(badId.statusCode).toBe(400);
      expect(badId.json().error).toMatchObject({ type: "invalid_request_error", param: "id" });
      expect((await admin("PATCH", path, { payout_funding_source: null }, null)).statusCode).toBe(401);
      const wrong = await admin("PATCH", path, { payout_funding_source: null }, "guess");
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe("admin_token_invalid");
      const unknown = await admin("PATCH", `/api/admin/merchants/mer_${"0".repeat(32)}`, { payout_funding_source: "https://api.dwolla.com/funding-sources/a" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toMatchObject({ type: "not_found_error", code: "merchant_not_found" });
      // None of the refused calls changed the merchant.
      expect((await admin("PATCH", path, {})).json()).toEqual(merchant);
    });

    it("answer 404 for an unknown merchant", async () => {
      const reply = await admin("POST", `/api/admin/merchants/mer_${"0".repeat(32)}/generate_api_key`);
      expect(reply.statusCode).toBe(404);
      expect(reply.json().error.code).toBe("merchant_not_found");
    });
  });
});

describe("gateway without services", () => {
  it("answers 503 with Retry-After when a service is absent, and readyz says not ready", async () => {
    const transport = await createInProcessTransport({ logger: silentLogger(), bus: createInProcessBus(), defaultTimeoutMs: 500 });
    const app = await buildApp({ transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 100, services: ["checkout"], sandbox: true });
    const reply = await app.inject({ url: "/api/merchants/checkout", headers: { "api-key": `sk_test_${"a".repeat(48)}` } });
    expect(reply.statusCode).toBe(503);
    expect(reply.headers["retry-after"]).toBeDefined();
    expect(reply.json().error).toMatchObject({ type: "api_error", code: "service_unavailable" });
    const ready = await app.inject("/readyz");
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: "not_ready", checks: { checkout: "down" } });
    await app.close();
    await transport.close();
  });
});
