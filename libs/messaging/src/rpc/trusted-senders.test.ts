import { describe, expect, it } from "vitest";
import type { Principal } from "@payrail/contracts";
import { refusedPrincipal, type TrustedSenders } from "./trusted-senders.ts";

const trust: TrustedSenders = { gateway: ["gw"], services: ["svc"], admin: ["cli"] };
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

  it("trusts everyone without a policy", () => {
    for (const principal of Object.values(principals)) expect(refusedPrincipal(undefined, undefined, principal)).toBeUndefined();
  });
});
