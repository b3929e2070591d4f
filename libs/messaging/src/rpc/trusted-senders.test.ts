import { describe, expect, it } from "vitest";
import { SERVICE_CALLS, serviceMayCall, simulateRefundPayoutOp, type Principal } from "@payrail/contracts";
import { believesClientIp, refusedPrincipal, type TrustedSenders } from "./trusted-senders.ts";

const trust: TrustedSenders = { gateway: ["gw"], services: { payments: ["svc"], refunds: ["refunds-user"], webhooks: ["webhooks-user"] }, admin: ["cli"] };
const principals: Record<string, Principal> = {
  merchant: { kind: "merchant", merchantId: "mer_1", keyPrefix: "sk_test_1", livemode: false },
  user: { kind: "user", userId: "usr_1", phone: "+15555550100" },
  admin: { kind: "admin" },
  service: { kind: "service", service: "payments" },
  anonymous: { kind: "anonymous" },
};
/** An operation payments calls (SERVICE_CALLS) and one it never calls. */
const CALLED = "checkout.getCheckoutSummary";
const NOT_CALLED = "payments.simulateTransfer";

describe("refusedPrincipal", () => {
  it.each([
    // sender, principals it may send to an operation payments calls
    ["gw", ["merchant", "user", "admin", "anonymous"]],
    ["svc", ["service"]],
    ["cli", ["admin", "anonymous"]],
    ["stranger", ["anonymous"]],
    [undefined, ["anonymous"]],
  ] as const)("%s may send exactly %j", (sender, allowed) => {
    const accepted = Object.entries(principals)
      .filter(([, principal]) => refusedPrincipal(trust, sender, principal, CALLED) === undefined)
      .map(([kind]) => kind);
    expect(accepted).toEqual(allowed);
  });

  it("accepts a service principal only from that service's own users (payments' user cannot act as refunds)", () => {
    const as = (service: string): Principal => ({ kind: "service", service });
    expect(refusedPrincipal(trust, "svc", as("payments"), CALLED)).toBeUndefined();
    expect(refusedPrincipal(trust, "refunds-user", as("refunds"), "payments.startRefundTransfer")).toBeUndefined();
    expect(refusedPrincipal(trust, "svc", as("refunds"), "payments.startRefundTransfer")).toMatch(/refunds/);
    expect(refusedPrincipal(trust, "refunds-user", as("payments"), CALLED)).toMatch(/payments/);
    expect(refusedPrincipal(trust, "svc", as("unknown"), CALLED)).toBeDefined();
  });

  it("lets refunds alone ask payments.simulateRefundPayout, whose audit actor payments believes as sent", () => {
    expect(Object.keys(SERVICE_CALLS).filter((service) => serviceMayCall(service, simulateRefundPayoutOp.pattern))).toEqual(["refunds"]);
  });

  it("accepts a service's own principal only for the operations it calls", () => {
    expect(refusedPrincipal(trust, "svc", principals.service!, NOT_CALLED)).toMatch(/payments does not call payments.simulateTransfer/);
    // webhooks calls nothing: its user is refused every operation, on every principal.
    for (const pattern of Object.values(SERVICE_CALLS).flat()) {
      for (const principal of [...Object.values(principals), { kind: "service", service: "webhooks" } as const]) {
        expect(refusedPrincipal(trust, "webhooks-user", principal, pattern)).toBeDefined();
      }
    }
  });

  it("refuses merchant and consumer principals from every service's user, whatever the operation", () => {
    for (const sender of ["svc", "refunds-user", "webhooks-user"]) {
      for (const pattern of [CALLED, NOT_CALLED, "refunds.decideRefund"]) {
        expect(refusedPrincipal(trust, sender, principals.merchant!, pattern)).toMatch(/only from the gateway/);
        expect(refusedPrincipal(trust, sender, principals.user!, pattern)).toMatch(/only from the gateway/);
      }
    }
  });

  it("lets a service's user ping its own service anonymously (its process's /readyz), and no other service", () => {
    expect(refusedPrincipal(trust, "svc", principals.anonymous!, "payments.ping")).toBeUndefined();
    expect(refusedPrincipal(trust, "refunds-user", principals.anonymous!, "refunds.ping")).toBeUndefined();
    expect(refusedPrincipal(trust, "svc", principals.anonymous!, "refunds.ping")).toMatch(/only to ping itself/);
    expect(refusedPrincipal(trust, "svc", principals.anonymous!, "payments.simulateTransfer")).toMatch(/only to ping itself/);
    expect(refusedPrincipal(trust, "svc", principals.merchant!, "payments.ping")).toMatch(/only from the gateway/);
  });

  it("trusts everyone without a policy", () => {
    for (const principal of Object.values(principals)) expect(refusedPrincipal(undefined, undefined, principal, NOT_CALLED)).toBeUndefined();
  });
});

describe("believesClientIp", () => {
  it("believes the gateway's users only, and every sender without a policy", () => {
    expect(believesClientIp(trust, "gw")).toBe(true);
    for (const sender of ["cli", "svc", "stranger", undefined]) expect(believesClientIp(trust, sender)).toBe(false);
    expect(believesClientIp(undefined, "stranger")).toBe(true);
  });
});
