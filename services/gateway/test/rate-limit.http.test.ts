import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

describe("rate limit per api-key", () => {
  const variant = embeddedVariant();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(variant, { rateLimitPerMinute: 5 });
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  it("answers 429 with Retry-After past the limit, for that key only", async () => {
    const a = await stack.merchant("A");
    const b = await stack.merchant("B");
    const list = (key: string) => stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": key } });
    for (let i = 0; i < 5; i++) expect((await list(a.apiKey)).statusCode).toBe(200);
    const limited = await list(a.apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await list(b.apiKey)).statusCode).toBe(200);
  });
});
