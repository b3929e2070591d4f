import { describe, expect, it } from "vitest";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { amountForPeriod, firstPeriodForNewAmount, upcomingCharge } from "./upcoming-charge.ts";

const sub = (over: Partial<TransferAttemptRecord> = {}) =>
  ({
    _id: "chk_1",
    amountCents: 1_000,
    anchorAt: "2027-01-15T10:00:00.000Z",
    planType: "monthly",
    period: 2,
    periodTry: 0,
    subscriptionStatus: "active",
    nextChargeAt: "2027-03-15T10:00:00.000Z",
    charge: null,
    ...over,
  }) as TransferAttemptRecord;

describe("upcoming charges", () => {
  it("announces an unchanged renewal NOTICE_DAYS_BEFORE days before, a changed one 10 days before", () => {
    expect(upcomingCharge(sub(), { daysBefore: 3 })).toMatchObject({ noticeAt: "2027-03-12T10:00:00.000Z", amountCents: 1_000, previousAmountCents: 1_000 });
    const changed = sub({ amountChange: { amountCents: 1_200, previousAmountCents: 1_000, fromPeriod: 2, changedAt: "2027-02-01T00:00:00.000Z" } });
    expect(upcomingCharge(changed, { daysBefore: 3 })).toMatchObject({ noticeAt: "2027-03-05T10:00:00.000Z", amountCents: 1_200, previousAmountCents: 1_000 });
  });

  it("announces nothing for a retry, a charge in flight, a cancelled subscription or a renewal announced already", () => {
    for (const over of [{ periodTry: 1 }, { subscriptionStatus: "cancelled" as const }, { announcedChargeAt: "2027-03-15T10:00:00.000Z" }, { nextChargeAt: null }]) {
      expect(upcomingCharge(sub(over), { daysBefore: 3 }), JSON.stringify(over)).toBeNull();
    }
  });

  it("charges the previous amount before the change's period and the new one from it", () => {
    const a = sub({ amountChange: { amountCents: 1_200, previousAmountCents: 900, fromPeriod: 3, changedAt: "" } });
    expect([1, 2, 3, 4].map((p) => amountForPeriod(a, p))).toEqual([900, 900, 1_200, 1_200]);
    expect(amountForPeriod(sub(), 7)).toBe(1_000);
  });

  it("applies a new amount from the first renewal at least 10 days away, not one being charged, retried or announced", () => {
    expect(firstPeriodForNewAmount(sub(), "2027-03-05T10:00:00.000Z")).toBe(2);
    expect(firstPeriodForNewAmount(sub(), "2027-03-05T10:00:01.000Z")).toBe(3);
    expect(firstPeriodForNewAmount(sub({ periodTry: 1 }), "2027-02-01T00:00:00.000Z")).toBe(3);
    expect(firstPeriodForNewAmount(sub({ announcedChargeAt: "2027-03-15T10:00:00.000Z" }), "2027-02-01T00:00:00.000Z")).toBe(3);
  });
});
