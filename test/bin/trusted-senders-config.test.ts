import { describe, expect, it } from "vitest";
import { loadConfig } from "@payrail/runtime";
import { trustedSenders } from "../../bin/wiring.ts";

describe("the broker trust boundary from the environment", () => {
  it("is off without AMQP_GATEWAY_USERS, and maps each service to its users with it", () => {
    expect(trustedSenders(loadConfig({}))).toBeUndefined();
    expect(
      trustedSenders(loadConfig({ AMQP_GATEWAY_USERS: "payrail-gateway", AMQP_SERVICE_USERS: "payments:payrail-payments,checkout:payrail-checkout", AMQP_ADMIN_USERS: "payrail-cli" })),
    ).toEqual({ gateway: ["payrail-gateway"], services: { payments: ["payrail-payments"], checkout: ["payrail-checkout"] }, admin: ["payrail-cli"] });
  });

  it("refuses to start with the gateway's users but no services' users: every event would be refused as forged", () => {
    expect(() => trustedSenders(loadConfig({ AMQP_GATEWAY_USERS: "payrail-gateway" }))).toThrow(/AMQP_SERVICE_USERS is not/);
  });
});
