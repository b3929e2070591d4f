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
  const details = (token: string, remoteAddress: string) =>
    stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${token}` }, remoteAddress });

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

  it("blocks a failing credential from its address after 10 × 401: 429 for it, not for a good key from the same address", async () => {
    const good = await stack.merchant("Good");
    const address = "10.0.0.66";
    const codes: number[] = [];
    for (let i = 0; i < 15; i++) codes.push((await list("sk_test_revoked0000000000", address)).statusCode);
    expect(codes).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
    const blocked = await list("sk_test_revoked0000000000", address);
    expect(blocked.json().error.code).toBe("rate_limited");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // The same address with another credential, and the same credential from another address.
    expect((await list(good.apiKey, address)).statusCode).toBe(200);
    expect((await list("sk_test_revoked0000000000", "10.0.0.67")).statusCode).toBe(401);
  });

  it("lets a good key through from an address that sent 25 different bad keys", async () => {
    const good = await stack.merchant("Neighbour");
    const address = "10.0.0.70";
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) codes.push((await list(`sk_test_guess${i}`, address)).statusCode);
    expect(codes).toEqual(Array(25).fill(401));
    expect((await list(good.apiKey, address)).statusCode).toBe(200);
  });

  it("limits requests without a credential per client address (an IPv6 client by its /64), on every anonymous route", async () => {
    const from = (remoteAddress: string, url = "/healthz") => stack.app.inject({ url, remoteAddress });
    const sendCode = (remoteAddress: string) =>
      stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone: "+14155550123" }, remoteAddress });
    for (const url of ["/healthz", "/dashboard/sign-in", "/openapi.json", "/healthz", "/healthz"]) expect((await from("10.0.0.90", url)).statusCode).toBe(200);
    for (const refused of [await from("10.0.0.90"), await from("10.0.0.90", "/dashboard/sign-in"), await sendCode("10.0.0.90")]) {
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect((await sendCode("10.0.0.90")).json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect((await from("10.0.0.91")).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await from(`2001:db8:9:9::${i + 1}`)).statusCode).toBe(200);
    expect((await from("2001:db8:9:9::ff")).statusCode).toBe(429);
    expect((await from("2001:db8:9:a::1")).statusCode).toBe(200);
  });

  it("counts a bad consumer token per address and token too", async () => {
    const address = "10.0.0.77";
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await details("bad-token", address)).statusCode);
    expect(codes).toEqual([...Array(10).fill(401), 429, 429]);
    expect((await details("another-bad-token", address)).statusCode).toBe(401);
  });
});
