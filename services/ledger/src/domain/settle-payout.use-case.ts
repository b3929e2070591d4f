import { balanceTransactionId } from "./balance-transaction.entity.ts";
import type { PayoutDeps } from "./ledger.deps.ts";
import { payoutEvent } from "./payout-events.ts";
import type { PayoutDoc } from "./payout.entity.ts";
import { bookRow } from "./record-entry.use-case.ts";

/** What payments says of a payout's transfer once it is final (payout_transfer.settled, or a refusal). */
export interface PayoutOutcome {
  status: "completed" | "failed";
  failure_code?: string | undefined;
  failure_reason?: string | undefined;
}

/**
 * A payout's transfer is final: the payout moves to `paid` or `failed` once, with its event, in
 * one conditional write. A failed payout's amount comes back to the balance as a positive `payout`
 * row in no payout, so the next payout carries it (its rows stay in the failed one: its report
 * still shows what it tried to pay). Safe to repeat: a repeat finds the payout settled and only
 * makes sure the returned amount is booked.
 */
export async function settlePayout(deps: PayoutDeps, payoutId: string, outcome: PayoutOutcome): Promise<PayoutDoc | null> {
  const stage = outcome.status === "completed" ? "paid" : "failed";
  const failure = stage === "failed" ? { code: outcome.failure_code ?? "failed", reason: outcome.failure_reason ?? "The payout's transfer failed" } : null;
  const moved = await deps.payouts.settle(payoutId, stage, failure, deps.now().toISOString(), (after) => payoutEvent(after, deps.livemode));
  if (moved) deps.events.written();
  const payout = moved ?? (await deps.payouts.find(payoutId));
  if (payout?.stage === "failed") {
    await bookRow(deps, {
      _id: balanceTransactionId("payout", `${payout._id}:failed`),
      merchantId: payout.merchantId,
      type: "payout",
      amountCents: payout.amountCents,
      currency: payout.currency,
      source: payout._id,
      eventId: payout._id,
      createdAt: payout.updatedAt,
      availableAt: payout.updatedAt,
      payoutId: null,
      counted: false,
    });
  }
  return payout;
}
