import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

describe("rate limits (@fastify/rate-limit)", () => {
  const variant = embeddedVariant();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(variant, { rateLimitPerMinute: 5, authFailuresPerMinute: 10 });
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  const list = (key: string, remoteAddress = "10.0.0.1") =>
    stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": key }, remoteAddress });

  it("answers 429 with Retry-After past the limit, for that key only, with RateLimit-* headers", async () => {
    const a = await stack.merchant("A");
    const b = await stack.merchant("B");
    for (let i = 0; i < 5; i++) {
      const ok = await list(a.apiKey);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["ratelimit-limit"]).toBe("5");
      expect(ok.headers["ratelimit-remaining"]).toBe(String(4 - i));
      expect(Number(ok.headers["ratelimit-reset"])).toBeGreaterThan(0);
    }
    const limited = await list(a.apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited", request_id: expect.any(String) });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    expect((await list(b.apiKey)).statusCode).toBe(200);
  });

  it("limits failed authentications per client address: 10 × 401, then 429 even for a good key", async () => {
    const good = await stack.merchant("Good");
    const attacker = "10.0.0.66";
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await list(`sk_test_guess${i}`, attacker)).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(codes.slice(10)).toEqual(Array(20).fill(429));
    const blocked = await list(good.apiKey, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe("rate_limited");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // A consumer token from that address is refused the same way; other addresses are unaffected.
    const consumer = await stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: "Token nope" }, remoteAddress: attacker });
    expect(consumer.statusCode).toBe(429);
    expect((await list(good.apiKey, "10.0.0.67")).statusCode).toBe(200);
  });

  it("counts bad consumer tokens per address too", async () => {
    const address = "10.0.0.77";
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      codes.push((await stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token bad${i}` }, remoteAddress: address })).statusCode);
    }
    expect(codes).toEqual([...Array(10).fill(401), 429, 429]);
  });
});
