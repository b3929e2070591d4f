import { describe, expect, it } from "vitest";
import type { Principal } from "@payrail/contracts";
import { refusedPrincipal, type TrustedSenders } from "./trusted-senders.ts";

const trust: TrustedSenders = { gateway: ["gw"], services: { payments: ["svc"], refunds: ["refunds-user"] }, admin: ["cli"] };
const principals: Record<string, Principal> = {
  merchant: { kind: "merchant", merchantId: "mer_1", keyPrefix: "sk_test_1", livemode: false },
  user: { kind: "user", userId: "usr_1", phone: "+15555550100" },
  admin: { kind: "admin" },
  service: { kind: "service", service: "payments" },
  anonymous: { kind: "anonymous" },
};

describe("refusedPrincipal", () => {
  it.each([
    // sender, principals it may send
    ["gw", ["merchant", "user", "admin", "anonymous"]],
    ["svc", ["merchant", "user", "service", "anonymous"]],
    ["cli", ["admin", "anonymous"]],
    ["stranger", ["anonymous"]],
    [undefined, ["anonymous"]],
  ] as const)("%s may send exactly %j", (sender, allowed) => {
    const accepted = Object.entries(principals)
      .filter(([, principal]) => refusedPrincipal(trust, sender, principal) === undefined)
      .map(([kind]) => kind);
    expect(accepted).toEqual(allowed);
  });

  it("accepts a service principal only from that service's own users (payments' user cannot act as refunds)", () => {
    const as = (service: string): Principal => ({ kind: "service", service });
    expect(refusedPrincipal(trust, "svc", as("payments"))).toBeUndefined();
    expect(refusedPrincipal(trust, "refunds-user", as("refunds"))).toBeUndefined();
    expect(refusedPrincipal(trust, "svc", as("refunds"))).toMatch(/refunds/);
    expect(refusedPrincipal(trust, "refunds-user", as("payments"))).toMatch(/payments/);
    expect(refusedPrincipal(trust, "svc", as("unknown"))).toBeDefined();
  });

  it("trusts everyone without a policy", () => {
    for (const principal of Object.values(principals)) expect(refusedPrincipal(undefined, undefined, principal)).toBeUndefined();
  });
});
