import { describe, expect, it } from "vitest";
import { EVENT_OWNERS, EVENT_TYPES, eventOwner, INTERNAL_EVENT_TYPES } from "@payrail/contracts";
import type { TrustedSenders } from "../rpc/trusted-senders.ts";
import { originalSender, refusedEventSender } from "./event-senders.ts";

const trust: TrustedSenders = {
  gateway: ["payrail-gateway"],
  services: { payments: ["payrail-payments"], checkout: ["payrail-checkout"], refunds: ["payrail-refunds"], webhooks: ["payrail-webhooks"] },
  admin: ["payrail-cli"],
};

describe("refusedEventSender", () => {
  it("has an owner for every event type of the catalogue and the internal ones, as docs/events.md lists them", () => {
    for (const type of [...EVENT_TYPES, ...INTERNAL_EVENT_TYPES]) expect(eventOwner(type)).toBeDefined();
    expect(Object.keys(EVENT_OWNERS).sort()).toEqual([...EVENT_TYPES, ...INTERNAL_EVENT_TYPES].sort());
    expect(eventOwner("refund_payout.settled")).toBe("payments");
    expect(eventOwner("payment_method.saved")).toBe("payments");
    expect(eventOwner("checkout.created")).toBe("checkout");
    expect(eventOwner("refund.completed")).toBe("refunds");
    expect(eventOwner("toString")).toBeUndefined();
  });

  it.each([
    ["transaction.completed", "payrail-payments"],
    ["subscription.cancelled", "payrail-payments"],
    ["payment_method.saved", "payrail-payments"],
    ["refund_payout.settled", "payrail-payments"],
    ["checkout.created", "payrail-checkout"],
    ["refund.approved", "payrail-refunds"],
  ])("accepts %s from its owner's user %s, and from nobody else", (type, owner) => {
    expect(refusedEventSender(trust, owner, type)).toBeUndefined();
    for (const other of ["payrail-payments", "payrail-checkout", "payrail-refunds", "payrail-webhooks", "payrail-gateway", "payrail-cli", "guest", undefined]) {
      if (other === owner) continue;
      expect(refusedEventSender(trust, other, type)).toMatch(/^forged event: /);
    }
  });

  it("names the sender in the reason, never more than who and what", () => {
    expect(refusedEventSender(trust, "payrail-webhooks", "transaction.completed")).toBe(
      "forged event: transaction.completed is accepted only from payments, not from broker user payrail-webhooks (the webhooks service)",
    );
    expect(refusedEventSender(trust, "payrail-cli", "refund_payout.settled")).toMatch(/not from broker user payrail-cli$/);
    expect(refusedEventSender(trust, undefined, "refund_payout.settled")).toMatch(/not from a publisher without user_id$/);
  });

  it("refuses a type nobody owns, and trusts everyone without a policy", () => {
    expect(refusedEventSender(trust, "payrail-payments", "transaction.invented")).toMatch(/no service owns/);
    expect(refusedEventSender(undefined, undefined, "transaction.completed")).toBeUndefined();
    expect(refusedEventSender(undefined, "anyone", "refund_payout.settled")).toBeUndefined();
  });
});

describe("originalSender", () => {
  it("believes the forwarded-from header only on the subscriber's own copies", () => {
    // The subscriber's own retry copy: the original publisher it checked.
    expect(originalSender({ userId: "payrail-checkout", forwardedFrom: "payrail-payments" }, "payrail-checkout")).toBe("payrail-payments");
    // Anyone else claiming to forward is judged as themselves.
    expect(originalSender({ userId: "payrail-webhooks", forwardedFrom: "payrail-payments" }, "payrail-checkout")).toBe("payrail-webhooks");
    expect(originalSender({ userId: undefined, forwardedFrom: "payrail-payments" }, "payrail-checkout")).toBeUndefined();
    expect(originalSender({ userId: undefined, forwardedFrom: "payrail-payments" }, undefined)).toBeUndefined();
    expect(originalSender({ userId: "payrail-payments", forwardedFrom: undefined }, "payrail-checkout")).toBe("payrail-payments");
  });
});
