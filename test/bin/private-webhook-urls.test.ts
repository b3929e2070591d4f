import { loadConfig } from "@payrail/runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { privateWebhookUrlsAllowed } from "../../bin/wiring.ts";

describe("privateWebhookUrlsAllowed", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const allowed = (env: Record<string, string>) => privateWebhookUrlsAllowed(loadConfig(env));

  it.each(["development", "production", "test"])("allows private targets by default with sandbox providers, whatever NODE_ENV=%s says", (nodeEnv) => {
    vi.stubEnv("NODE_ENV", nodeEnv);
    expect(allowed({})).toBe(true);
    expect(allowed({ PROVIDERS: "sandbox" })).toBe(true);
  });

  it.each(["development", "test"])("refuses private targets by default with live providers, even under NODE_ENV=%s", (nodeEnv) => {
    vi.stubEnv("NODE_ENV", nodeEnv);
    expect(allowed({ PROVIDERS: "live" })).toBe(false);
  });

  it("takes WEBHOOK_ALLOW_PRIVATE_URLS over the sandbox's default, but never allows private targets with live providers", () => {
    expect(allowed({ PROVIDERS: "sandbox", WEBHOOK_ALLOW_PRIVATE_URLS: "false" })).toBe(false);
    expect(allowed({ PROVIDERS: "sandbox", WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toBe(true);
    expect(allowed({ PROVIDERS: "live", WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toBe(false);
  });
});
