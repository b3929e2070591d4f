import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startServices, type Started } from "../../../bin/wiring.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { expectNo5xx } from "./support/no-5xx.ts";

const variants = await infraVariants();

/**
 * Throws random bodies, paths and queries at the events, webhook endpoint and test event
 * routes: whatever arrives, the answer is a 2xx or a 4xx in the API's error shape, never a 5xx.
 */
describe.each(variants)("events and webhook routes under random input over $name", (variant) => {
  let stack: Stack;
  let webhooks: Started[] = [];
  const real: Record<string, string> = {};

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), WEBHOOK_TIMEOUT: "1s" });
    webhooks = await startServices(["webhooks"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    const merchant = await stack.merchant();
    real["KEY"] = merchant.apiKey;
    const headers = { "api-key": merchant.apiKey };
    // Nothing listens on port 9: deliveries fail fast and are retried in the background.
    const endpoint = await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] }, headers });
    real["ENDPOINT"] = endpoint.json().id;
    real["EVENT"] = (await stack.app.inject({ method: "POST", url: "/api/sandbox/events", payload: { type: "refund.approved" }, headers })).json().id;
  });
  afterAll(async () => {
    for (const service of webhooks) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const header = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
  const fill = (v: string) => v.replace(/ENDPOINT|EVENT/g, (name) => real[name]!);
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom("", "*", "refund.*", "refund.**", "checkout.created", "nope", "enabled", "disabled", null, [], {}, -1),
    fc.constantFrom("http://127.0.0.1:9/x", "https://169.254.169.254/", "ftp://example.com", "http://[::1]:9/", "http://localhost:9/", "not a url", "x".repeat(3000)),
  );
  const events = fc.oneof(value, fc.array(value, { maxLength: 5 }), fc.array(fc.constantFrom("*", "refund.*", "transaction.completed", "bad"), { maxLength: 70 }));
  const body = fc.oneof(
    fc.record({ url: value, enabled_events: events, description: value, status: value, type: value, extra: value }, { requiredKeys: [] }),
    value,
  );
  const paths = [
    "/api/merchants/events",
    "/api/merchants/events/EVENT",
    "/api/merchants/events/EVENT/redeliver",
    "/api/merchants/webhook_endpoints",
    "/api/merchants/webhook_endpoints/ENDPOINT",
    "/api/merchants/webhook_endpoints/ENDPOINT/rotate_secret",
    "/api/merchants/webhook_endpoints/ENDPOINT/deliveries",
    "/api/sandbox/events",
  ];
  const segment = fc.oneof(fc.constantFrom("EVENT", "ENDPOINT", `evt_${"0".repeat(32)}`, `we_${"0".repeat(32)}`, "%00", ".."), header.map(encodeURIComponent));
  const query = fc.oneof(
    fc.constant(""),
    fc.constantFrom("?limit=0", "?limit=101", "?limit=abc", "?type=refund.*", "?type=*", "?type=zzz", "?starting_after=evt_x", `?starting_after=evt_${"0".repeat(32)}`, "?limit=1&limit=2"),
    header.map((h) => `?${encodeURIComponent(h)}`),
  );

  describe.skipIf(!!variant.skipReason)("properties", () => {
    it("never answers 5xx to random bodies on every route and method", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom("GET", "POST", "DELETE"), body, fc.constantFrom("KEY", "none", "bad"), async (path, method, b, who) => {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (who === "KEY") headers["api-key"] = real["KEY"]!;
          if (who === "bad") headers["api-key"] = "sk_test_nope";
          // Deleting the shared endpoint would leave the other runs only 404s to test.
          const url = method === "DELETE" ? path.replace("ENDPOINT", `we_${"1".repeat(32)}`) : fill(path);
          const reply = await stack.app.inject({ method, url, ...(method === "POST" ? { payload: JSON.stringify(b) } : {}), headers });
          expectNo5xx(reply, { path, method, b, who });
        }),
        { numRuns: 150 },
      );
    });

    it("never answers 5xx to random ids and queries", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("/api/merchants/events/", "/api/merchants/webhook_endpoints/"),
          segment,
          fc.constantFrom("", "/deliveries", "/redeliver", "/rotate_secret"),
          query,
          async (base, id, tail, q) => {
            const url = `${base}${fill(id)}${tail}${q}`;
            const reply = await stack.app.inject({ method: tail === "/redeliver" || tail === "/rotate_secret" ? "POST" : "GET", url, headers: { "api-key": real["KEY"]! } });
            expectNo5xx(reply, { url });
          },
        ),
        { numRuns: 150 },
      );
    });
  });
});
