import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { memoryLogger } from "../../../test/support/memory-logger.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  reqId?: string;
  [field: string]: unknown;
}

/**
 * What the stack logs per request and what it counts, with every service logging at debug
 * into memory: at info, one line per request from the gateway; at debug, every service that
 * handled the request also logs its id (docs/api-notes.md, Requests).
 */
describe("request logs and metrics", () => {
  const memory = memoryLogger("debug");
  const variant = embeddedVariant(memory.logger);
  let stack: Stack;
  let apiKey: string;
  const lines = () => memory.lines<LogLine>();
  const linesOf = (requestId: string) => lines().filter((l) => l.requestId === requestId);

  beforeAll(async () => {
    // No api-key cache: every request resolves its key through identity.
    stack = await startStack(variant, { logger: memory.logger, apiKeyCacheMs: 0 });
    apiKey = (await stack.merchant()).apiKey;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  it("writes one info line per request: id, method, route pattern, status, ms and the operations it called", async () => {
    const reply = await stack.app.inject({
      method: "POST",
      url: "/api/merchants/checkout",
      payload: sampleCheckout(),
      headers: { "api-key": apiKey, "x-request-id": "req-log-create" },
    });
    expect(reply.statusCode).toBe(200);
    const info = linesOf("req-log-create").filter((l) => l.level >= 30);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({
      msg: "request completed",
      method: "POST",
      route: "/api/merchants/checkout",
      status: 200,
      rpc: ["identity.resolveApiKey", "checkout.createCheckout"],
    });
    expect(info[0]?.ms).toEqual(expect.any(Number));
    expect(lines().some((l) => "reqId" in l)).toBe(false);
  });

  it("logs the request id in every service that handled the request, at debug", async () => {
    const { id } = (
      await stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: { "api-key": apiKey } })
    ).json();
    await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": apiKey, "x-request-id": "req-log-get" } });
    const handled = linesOf("req-log-get").filter((l) => l.msg === "rpc handled");
    expect(handled.map((l) => [l.level, l.pattern])).toEqual([
      [20, "identity.resolveApiKey"],
      [20, "checkout.getCheckout"],
    ]);
  });

  it("names a failed request's error code in its one line, for rejected bodies and unknown routes alike", async () => {
    await stack.app.inject({
      method: "POST",
      url: "/api/merchants/checkout",
      payload: "{",
      headers: { "api-key": apiKey, "content-type": "application/json", "x-request-id": "req-log-bad" },
    });
    await stack.app.inject({ url: "/api/nope/chk_0123456789abcdef", headers: { "x-request-id": "req-log-404" } });
    const bad = linesOf("req-log-bad").filter((l) => l.level >= 30);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ msg: "request completed", status: 400, error: "invalid_json", route: "/api/merchants/checkout" });
    const missing = linesOf("req-log-404").filter((l) => l.level >= 30);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ status: 404, error: "route_not_found", route: "unmatched" });
    expect(JSON.stringify(missing[0])).not.toContain("chk_0123456789abcdef");
  });

  it("labels metrics by route pattern, and unknown paths as unmatched rather than by URL", async () => {
    for (const path of ["/api/nope/one-0001", "/api/nope/two-0002"]) await stack.app.inject({ url: path });
    const body = (await stack.app.inject("/metrics")).body;
    expect(body).toMatch(/payrail_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(body).toContain('route="/api/merchants/checkout/:checkout_id"');
    expect(body).not.toMatch(/one-0001|two-0002|chk_/);
    expect(body).toMatch(/payrail_rpc_expired_requests_total 0/);
  });
});
