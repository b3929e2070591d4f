import { describe, expect, it } from "vitest";
import { ApiKeyCache } from "./api-key.cache.ts";

const principal = (merchantId: string, keyPrefix: string) => ({ kind: "merchant" as const, merchantId, keyPrefix, livemode: false });

describe("the api-key cache", () => {
  it("forgets a revoked key at once, and only that merchant's key with that prefix", () => {
    const cache = new ApiKeyCache(60_000);
    cache.set("hash-a1", principal("mer_a", "sk_test_aaaaaaaa"));
    cache.set("hash-a2", principal("mer_a", "sk_test_bbbbbbbb"));
    cache.set("hash-b1", principal("mer_b", "sk_test_aaaaaaaa"));
    cache.forget("mer_a", "sk_test_aaaaaaaa");
    expect(cache.get("hash-a1")).toBeUndefined();
    expect(cache.get("hash-a2")?.keyPrefix).toBe("sk_test_bbbbbbbb");
    expect(cache.get("hash-b1")?.merchantId).toBe("mer_b");
  });
});
