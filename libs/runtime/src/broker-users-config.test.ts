import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("the broker trust boundary's configuration", () => {
  it("reads AMQP_SERVICE_USERS as each service's broker users, unset by default", () => {
    expect(loadConfig({}).AMQP_SERVICE_USERS).toBeUndefined();
    expect(loadConfig({ AMQP_SERVICE_USERS: "" }).AMQP_SERVICE_USERS).toBeUndefined();
    expect(loadConfig({ AMQP_SERVICE_USERS: " payments:payrail-payments, refunds:payrail-refunds,payments:payrail-payments-2 ," }).AMQP_SERVICE_USERS).toEqual({
      payments: ["payrail-payments", "payrail-payments-2"],
      refunds: ["payrail-refunds"],
    });
  });

  it("refuses a bare user name: which service it is decides what it may publish and act as", () => {
    expect(() => loadConfig({ AMQP_SERVICE_USERS: "payments:payrail-payments,payrail-refunds" })).toThrow(/"payrail-refunds" is not service:user/);
    expect(() => loadConfig({ AMQP_SERVICE_USERS: "payments:" })).toThrow(/AMQP_SERVICE_USERS/);
  });
});
