import { randomBytes } from "node:crypto";
import { buildApp } from "@payrail/gateway";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProcessMetrics } from "../../../bin/observability/process-metrics.ts";
import { startServices } from "../../../bin/wiring.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { randomPhone } from "./support/bank-linking.ts";

const PROXY = "10.2.0.1";

/**
 * SMS pumping (docs/api-notes.md, Limits): Send Code, which needs no credential, is limited per client address
 * (as TRUST_PROXY decides it), per calling code and in total, per sliding hour, with 429
 * `rate_limited`, Retry-After and a counter in /metrics. One process as `payrail start` builds
 * it, with SEND_CODE_PER_ADDRESS_PER_HOUR=2.
 */
describe("send_code budgets through the gateway", () => {
  const variant = embeddedVariant();
  let transport: Transport;
  let app: FastifyInstance;
  let metrics: ReturnType<typeof createProcessMetrics>;

  beforeAll(async () => {
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), SEND_CODE_PER_ADDRESS_PER_HOUR: "2", TRUST_PROXY: PROXY });
    transport = await variant.transport();
    metrics = createProcessMetrics(transport);
    const logger = silentLogger();
    await startServices(["identity"], { config, logger, transport, store: await variant.store() });
    app = await buildApp({
      transport,
      logger,
      apiKeyCacheMs: 0,
      rateLimitPerMinute: 100_000,
      services: ["identity"],
      sandbox: true,
      trustProxy: config.TRUST_PROXY,
      processMetrics: metrics.registry,
    });
    await app.ready();
  });
  afterAll(async () => {
    metrics?.close();
    await app?.close();
    await variant.cleanup();
  });

  const sendCode = (client: string) =>
    app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone: randomPhone() }, headers: { "x-forwarded-for": client }, remoteAddress: PROXY });
  const limited = async () => {
    const line = (await app.inject("/metrics")).body.split("\n").find((l) => l.startsWith('payrail_send_code_limited_total{limit="address"}'));
    return Number(line?.split(" ")[1] ?? 0);
  };

  it("answers a client's third code within an hour 429 rate_limited with Retry-After, and counts it in /metrics", async () => {
    const before = await limited();
    expect((await sendCode("203.0.113.40")).statusCode).toBe(200);
    expect((await sendCode("203.0.113.40")).statusCode).toBe(200);
    const refused = await sendCode("203.0.113.40");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited", request_id: expect.any(String) });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    // A send counts for an hour after the end of its 5-minute slot (docs/decisions/0003-send-code-budgets.md).
    expect(retryAfter).toBeGreaterThan(3300);
    expect(retryAfter).toBeLessThanOrEqual(3900);
    expect(await limited()).toBe(before + 1);
  });

  it("does not hold one client's sends against another behind the same proxy", async () => {
    for (let i = 0; i < 2; i++) await sendCode("203.0.113.41");
    expect((await sendCode("203.0.113.41")).statusCode).toBe(429);
    expect((await sendCode("203.0.113.42")).statusCode).toBe(200);
  });

  it("ignores a client_address in the body: the gateway decides the address", async () => {
    for (let i = 0; i < 2; i++) await sendCode("203.0.113.43");
    const spoofed = await app.inject({
      method: "POST",
      url: "/api/verify_user/send_code",
      payload: { phone: randomPhone(), client_address: "192.0.2.99" },
      headers: { "x-forwarded-for": "203.0.113.43" },
      remoteAddress: PROXY,
    });
    expect(spoofed.statusCode).toBe(429);
  });
});
