import { describe, expect, it } from "vitest";
import type { RefundPayoutSnapshot } from "@payrail/contracts";
import type { RefundLedger, RefundLedgersPort } from "./ports/refund-ledgers.port.ts";
import type { RefundsPort } from "./ports/refunds.port.ts";
import type { RefundDoc } from "./refund.entity.ts";
import { refusedPayoutAmounts } from "./refused-payout-amounts.ts";

const UUID = `sc-${"a".repeat(32)}`;
const REFUND = `rfd_${"b".repeat(32)}`;

/** A 107.50 payment, of which a 40.00 refund is being paid out (and nothing else is held). */
function deps(ledger: Partial<RefundLedger> | null = {}) {
  const refund = { _id: REFUND, transactionUuid: UUID, amountCents: 4_000, status: "processing", attempt: 1 } as RefundDoc;
  const held: RefundLedger | null = ledger && { _id: UUID, amountCents: 10_750, reservedCents: 4_000, holds: {}, createdAt: "", ...ledger };
  return {
    refunds: { find: async (id: string) => (id === REFUND ? refund : null) } as unknown as RefundsPort,
    ledgers: { find: async (id: string) => (id === UUID ? held : null) } as unknown as RefundLedgersPort,
  };
}

const payout = (changes: Partial<RefundPayoutSnapshot> = {}): RefundPayoutSnapshot => ({
  refund_id: REFUND,
  attempt: 1,
  transfer_id: "payout-1",
  status: "completed",
  transaction_uuid: UUID,
  checkout_id: `chk_${"c".repeat(32)}`,
  amount_cents: 4_000,
  amount_refunded_cents: 4_000,
  fully_refunded: false,
  ...changes,
});

describe("refusedPayoutAmounts", () => {
  it("accepts the payout of the refund's own amount, on its transaction, within what the refunds hold", async () => {
    expect(await refusedPayoutAmounts(deps(), payout())).toBeUndefined();
    expect(await refusedPayoutAmounts(deps(), payout({ status: "failed", amount_refunded_cents: 0 }))).toBeUndefined();
    // Events from before amount_cents: the transaction's figure is still checked.
    const { amount_cents: _omitted, ...older } = payout();
    expect(await refusedPayoutAmounts(deps(), older)).toBeUndefined();
    // Other refunds hold the rest: their completed payouts count too.
    expect(await refusedPayoutAmounts(deps({ reservedCents: 10_750 }), payout({ amount_refunded_cents: 10_750, fully_refunded: true }))).toBeUndefined();
  });

  it("refuses a payout of more (or less) than the refund asked for", async () => {
    expect(await refusedPayoutAmounts(deps(), payout({ amount_cents: 10_750 }))).toMatch(/payout of 10750 cents for a refund of 4000/);
    expect(await refusedPayoutAmounts(deps(), payout({ amount_cents: 1 }))).toMatch(/payout of 1 cents/);
  });

  it("refuses a transaction figure above what its refunds hold: 107.50 refunded where 40 was requested", async () => {
    expect(await refusedPayoutAmounts(deps(), payout({ amount_refunded_cents: 10_750, fully_refunded: true }))).toMatch(/10750 cents refunded of the transaction, more than its refunds hold \(4000 of 10750\)/);
    const { amount_cents: _omitted, ...older } = payout({ amount_refunded_cents: 10_750 });
    expect(await refusedPayoutAmounts(deps(), older)).toBeDefined();
  });

  it("refuses an outcome naming another transaction than the refund's", async () => {
    expect(await refusedPayoutAmounts(deps(), payout({ transaction_uuid: `sc-${"d".repeat(32)}` }))).toMatch(/the refund is of transaction/);
  });

  it("leaves an unknown refund to settleRefund (refund_not_found), and a refund without ledger unchecked on the transaction's figure", async () => {
    expect(await refusedPayoutAmounts(deps(), payout({ refund_id: `rfd_${"e".repeat(32)}` }))).toBeUndefined();
    expect(await refusedPayoutAmounts(deps(null), payout({ amount_refunded_cents: 10_750 }))).toBeUndefined();
  });
});
