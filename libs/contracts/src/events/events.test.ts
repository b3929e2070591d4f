import { describe, expect, it } from "vitest";
import { AnyDomainEvent, DomainEvent, EVENT_TYPES, RefundApprovedEvent } from "../index.ts";

const refundApproved = {
  id: `evt_${"a".repeat(32)}`,
  type: "refund.approved",
  created_at: "2025-01-31T12:00:00.000Z",
  aggregate: { type: "refund", id: `rfd_${"b".repeat(32)}`, version: 2 },
  livemode: false,
  merchant_id: `mer_${"d".repeat(32)}`,
  data: { object: { id: `rfd_${"b".repeat(32)}`, transaction_uuid: `sc-${"c".repeat(32)}`, status: "approved", amount: "10.00" } },
};

describe("domain events", () => {
  it("catalogues exactly the fifteen first types of docs/events.md, transaction.returned, merchant.return_rate_warning, mandate.created, mandate.revoked, payment_method.blocked, subscription.reactivated, .upcoming and .updated, the fraud reviews' review.opened and review.closed, and account validation's bank_account.validation_required and bank_account.validated, and the payouts' payout.created, .paid and .failed", () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        "checkout.created",
        "checkout.payment_method_saved",
        "transaction.created",
        "transaction.completed",
        "transaction.failed",
        "transaction.returned",
        "subscription.renewed",
        "subscription.past_due",
        "subscription.cancelled",
        "subscription.unpaid",
        "refund.requested",
        "refund.approved",
        "refund.rejected",
        "refund.processing",
        "refund.completed",
        "refund.failed",
        "refund.over_returned",
        "merchant.return_rate_warning",
        "mandate.created",
        "mandate.revoked",
        "payment_method.blocked",
        "subscription.reactivated",
        "subscription.upcoming",
        "subscription.updated",
        "review.opened",
        "review.closed",
        "bank_account.validation_required",
        "bank_account.validated",
        "payout.created",
        "payout.paid",
        "payout.failed",
      ].sort(),
    );
  });

  it("accepts a well-formed event and keeps the snapshot's other fields", () => {
    const parsed = AnyDomainEvent.parse(refundApproved);
    expect(parsed.type).toBe("refund.approved");
    expect(RefundApprovedEvent.parse(refundApproved).data.object["amount"]).toBe("10.00");
  });

  it.each([
    ["an id without the evt_ prefix", { id: "a".repeat(32) }],
    ["a created_at without milliseconds", { created_at: "2025-01-31T12:00:00Z" }],
    ["a created_at with an offset", { created_at: "2025-01-31T12:00:00.000+01:00" }],
    ["a fractional version", { aggregate: { type: "refund", id: "rfd_x", version: 1.5 } }],
  ])("refuses an envelope with %s", (_label, change) => {
    expect(DomainEvent.safeParse({ ...refundApproved, ...change }).success).toBe(false);
  });

  it("refuses an event whose aggregate or snapshot does not fit its type", () => {
    expect(AnyDomainEvent.safeParse({ ...refundApproved, aggregate: { type: "checkout", id: "chk_1", version: 1 } }).success).toBe(false);
    expect(AnyDomainEvent.safeParse({ ...refundApproved, data: { object: { id: "rfd_1" } } }).success).toBe(false);
    expect(AnyDomainEvent.safeParse({ ...refundApproved, type: "refund.lost" }).success).toBe(false);
  });
});
