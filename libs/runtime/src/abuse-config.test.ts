import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("abuse-limit configuration (docs/api-notes.md, Limits)", () => {
  it("reads TRUST_PROXY as off, a hop count or a list of addresses and CIDRs", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.5,::1,fd00::/8,loopback" }).TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "192.168.1.5",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
  });

  it("refuses TRUST_PROXY=true and anything that is not an address, naming it", () => {
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY.*hop count/);
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/"10.0.0.0\/33"/);
    expect(() => loadConfig({ TRUST_PROXY: "proxy.internal" })).toThrow(/"proxy.internal"/);
  });

  it("leaves the per-address send_code budget to the providers' default and totals 5,000 an hour", () => {
    expect(loadConfig({}).SEND_CODE_PER_ADDRESS_PER_HOUR).toBeUndefined();
    expect(loadConfig({ SEND_CODE_PER_ADDRESS_PER_HOUR: "7" }).SEND_CODE_PER_ADDRESS_PER_HOUR).toBe(7);
    expect(loadConfig({}).SEND_CODE_PER_HOUR).toBe(5_000);
    expect(() => loadConfig({ SEND_CODE_PER_HOUR: "0" })).toThrow(/SEND_CODE_PER_HOUR/);
    expect(loadConfig({}).SEND_CODE_PER_COUNTRY_PER_HOUR).toBeUndefined();
    expect(loadConfig({ SEND_CODE_PER_COUNTRY_PER_HOUR: "300" }).SEND_CODE_PER_COUNTRY_PER_HOUR).toBe(300);
    expect(() => loadConfig({ SEND_CODE_PER_COUNTRY_PER_HOUR: "-1" })).toThrow(/SEND_CODE_PER_COUNTRY_PER_HOUR/);
  });

  it("reads WEBHOOK_ALLOW_PRIVATE_URLS as a boolean, unset when not given", () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_PRIVATE_URLS).toBeUndefined();
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "false" }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "1" }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "yes" })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });
});
