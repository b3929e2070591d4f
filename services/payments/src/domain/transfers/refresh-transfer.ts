import type { PayoutTransferSnapshot, RefundPayoutSnapshot } from "@payrail/contracts";
import { applyPayoutTransferStatus } from "../merchant-payouts/apply-payout-transfer-status.ts";
import { applyRefundTransferStatus } from "../refund-payouts/apply-refund-transfer-status.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { blockAfterReturn } from "../returns/block-bank-account.ts";
import { followSubscriptionCharge } from "../renewals/follow-subscription-charge.ts";
import { countDayTotal } from "../payment-stats/count-day-total.ts";
import { settleTransaction } from "./settle-transaction.ts";
import { warnReturnRates } from "../returns/warn-return-rates.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { StatusDeps } from "./transfer.deps.ts";

/** What asking the provider about one transfer did. */
export type Refreshed =
  /** A transaction's transfer: `final` once the provider's word is final (applied). */
  | { kind: "transaction"; transaction: TransactionDoc; final: boolean }
  /** A refund payout's transfer: the payout's outcome, null while pending. */
  | { kind: "payout"; payout: RefundPayoutSnapshot | null }
  /** A merchant payout's transfer: its outcome, null while pending. */
  | { kind: "merchant_payout"; payout: PayoutTransferSnapshot | null }
  /** Payments has no record of this transfer (yet). */
  | { kind: "unknown" };

/**
 * The one path by which a transfer's status changes (provider notices, sandbox simulations,
 * the reconciler): the status is read from the provider, never taken from whoever asked, and
 * applied by forward-only conditional writes with their events. A subscription's charge then
 * moves its schedule. Safe to repeat: a second run finds everything applied and changes nothing.
 */
export async function refreshTransfer(deps: StatusDeps, meta: RequestMeta, transferId: string): Promise<Refreshed> {
  const transaction = await deps.transactions.findByTransferId(transferId);
  if (!transaction) {
    const refundTransfer = await deps.refundTransfers.findByTransferId(transferId);
    if (!refundTransfer) {
      const payoutTransfer = await deps.payoutTransfers.findByTransferId(transferId);
      return payoutTransfer ? { kind: "merchant_payout", payout: await applyPayoutTransferStatus(deps, payoutTransfer) } : { kind: "unknown" };
    }
    return { kind: "payout", payout: await applyRefundTransferStatus(deps, meta, refundTransfer) };
  }
  const state = await deps.transfers.getTransfer(transferId);
  // Nothing final yet (a notice that ran ahead of the provider): a later one, or the reconciler, acts.
  if (state.status === "pending") return { kind: "transaction", transaction, final: false };
  const current = await settleTransaction(deps, transaction, { status: state.status, failureCode: state.failureCode }, deps.now().toISOString());
  await countDayTotal(deps, current);
  // Before the caller remembers its notice: a failure here makes the notice count again. The
  // block comes first: the subscriptions on the account become `unpaid`, this one included,
  // so its own outcome then schedules no retry.
  await blockAfterReturn(deps, current);
  await followSubscriptionCharge(deps, current);
  if (current.version !== transaction.version && current.returnGroup) await warnReturnRates(deps, current);
  if (current.version !== transaction.version) {
    deps.logger.info(
      { requestId: meta.requestId, transactionUuid: current._id, status: current.transaction_status, ...(current.error ? { failure: current.error } : {}) },
      "transfer status applied",
    );
  }
  return { kind: "transaction", transaction: current, final: true };
}
