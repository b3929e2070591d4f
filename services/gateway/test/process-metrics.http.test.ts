import { randomBytes } from "node:crypto";
import { createMerchantOp } from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMetricsServer } from "../../../bin/observability/metrics-server.ts";
import { createProcessMetrics } from "../../../bin/observability/process-metrics.ts";
import { startServices, type Started } from "../../../bin/wiring.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import type { Stack } from "../../../test/support/stack.ts";
import { transactionEvent, transactionRecord } from "../../../test/support/payment-events.ts";
import { payment, requested } from "./support/refund-flow.ts";

const DOMAIN = ["identity", "checkout", "payments", "refunds"] as const;

/**
 * One process as `payrail start` builds it: the services and the gateway on one transport,
 * with the process's metrics served by the gateway's /metrics and by the METRICS_PORT server.
 */
describe("process metrics and the METRICS_PORT server", () => {
  const variant = embeddedVariant();
  let transport: Transport;
  let stack: Stack;
  let metrics: ReturnType<typeof createProcessMetrics>;
  let server: Started & { url: string };
  let apiKey: string;
  const admin = { requestId: "test", principal: { kind: "admin" as const } };

  beforeAll(async () => {
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    transport = await variant.transport();
    metrics = createProcessMetrics(transport);
    const logger = silentLogger();
    await startServices(DOMAIN, { config, logger, transport, store: await variant.store() });
    const app = await buildApp({
      transport,
      logger,
      apiKeyCacheMs: 0,
      rateLimitPerMinute: 100_000,
      services: DOMAIN,
      sandbox: true,
      processMetrics: metrics.registry,
    });
    await app.ready();
    const merchant = async (name = "Metrics") => {
      const out = await transport.call(createMerchantOp, { name }, admin);
      return { id: out.merchant.id, apiKey: out.api_key };
    };
    stack = { app, transport, merchant, close: () => app.close() };
    apiKey = (await merchant()).apiKey;
    server = await startMetricsServer({ port: 0, host: "127.0.0.1", registry: metrics.registry, transport, services: DOMAIN });
  });
  afterAll(async () => {
    await server?.stop();
    metrics?.close();
    await stack?.close();
    await variant.cleanup();
  });

  const scrape = async () => (await stack.app.inject("/metrics")).body;
  const value = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it("times RPC calls on both sides by operation and outcome, and counts codes sent", async () => {
    const missing = await stack.app.inject({ url: "/api/merchants/checkout/chk_0123456789abcdef0123456789abcdef", headers: { "api-key": apiKey } });
    expect(missing.statusCode).toBe(404);
    const sent = await stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone: "+14155550199" } });
    expect(sent.statusCode).toBe(200);
    const text = await scrape();
    for (const side of ["client", "server"]) {
      expect(value(text, `payrail_rpc_${side}_duration_seconds_count{operation="checkout.getCheckout",outcome="checkout_not_found"}`), side).toBe(1);
      expect(value(text, `payrail_rpc_${side}_duration_seconds_count{operation="identity.sendCode",outcome="ok"}`), side).toBe(1);
    }
    expect(value(text, "payrail_verification_codes_sent_total")).toBe(1);
    // The gateway's own HTTP metrics are in the same answer.
    expect(text).toContain('payrail_http_requests_total{method="POST",route="/api/verify_user/send_code",status="200"} 1');
  });

  it("counts transfers, refunds and events by type, and shows each outbox relay's lag", async () => {
    const paid = await payment(stack, apiKey, "completed");
    await requested(stack, paid);
    await vi.waitFor(async () => {
      const text = await scrape();
      expect(value(text, 'payrail_refunds_total{status="requested"}')).toBe(1);
      expect(value(text, 'payrail_events_total{type="checkout.created",result="published"}')).toBeGreaterThanOrEqual(1);
    });
    const text = await scrape();
    expect(value(text, 'payrail_events_total{type="refund.requested",result="published"}')).toBe(1);
    expect(text).toMatch(/^payrail_outbox_lag_seconds\{collections="[^"]*checkouts[^"]*"\} 0$/m);
    expect(text).toMatch(/^payrail_outbox_published_total\{collections="[^"]*refunds[^"]*"\} [1-9]/m);
    expect(text).toContain("# TYPE payrail_transfers_total counter");
  });

  it("counts dead letters by subscribing service and cause", async () => {
    // A transaction of a checkout the checkout service never had: it can never apply.
    await transport.publish(transactionEvent(transactionRecord(999_999_999, "completed"), "mer_" + "0".repeat(32)));
    await vi.waitFor(async () => expect(value(await scrape(), 'payrail_event_dead_letters_total{service="checkout",cause="cannot_apply"}')).toBe(1));
    expect(value(await scrape(), 'payrail_events_total{type="transaction.completed",result="dead_lettered"}')).toBe(1);
  });

  it("serves /healthz, /readyz and /metrics on its own port", async () => {
    const get = (path: string) => fetch(`${server.url}${path}`);
    expect(await (await get("/healthz")).json()).toEqual({ status: "ok" });
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { broker: "ok", identity: "ok", checkout: "ok", payments: "ok", refunds: "ok" } });
    const scraped = await get("/metrics");
    expect(scraped.headers.get("content-type")).toContain("text/plain");
    expect(await scraped.text()).toContain("payrail_rpc_server_duration_seconds_bucket");
    expect((await get("/nope")).status).toBe(404);
  });
});
