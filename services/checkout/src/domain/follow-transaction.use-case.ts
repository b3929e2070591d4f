import { AppError } from "@payrail/contracts";
import type { TransferSummaryRecord } from "./checkout.entity.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import { recordTransferStatus } from "./record-transfer-status.use-case.ts";
import { recordTransfer } from "./record-transfer.use-case.ts";

/** What the checkout reads of a transaction.* event's record (docs/api-notes.md, Moving money). */
export interface TransactionFacts {
  /** The checkout's sequential number. */
  checkout_id: number;
  transaction_uuid: string;
  processor_transaction_id: string;
  amount: number;
  transaction_status: "pending" | "completed" | "failed" | "cancelled" | "returned";
  transaction_date_time: string;
}

/**
 * The checkout follows its transaction (payments' transaction.created / .completed / .failed / .returned):
 * the transfer is recorded (`transfer_pending`) if it is not yet, then a final status moves it
 * to `paid` or `failed` (or, after a return, `returned`). Each step is a forward-only conditional write, so a redelivered event
 * changes nothing and a .completed that overtook its .created still lands both. A subscription's
 * later charges (renewals) leave the checkout's transfer as it is.
 */
export async function followTransaction(deps: { checkouts: CheckoutsPort }, t: TransactionFacts): Promise<{ status: string } | null> {
  const checkout = await deps.checkouts.findByNumber(t.checkout_id);
  if (!checkout) throw new AppError("checkout_not_found", `no checkout numbered ${t.checkout_id} for transaction ${t.transaction_uuid}`);
  // A subscription's renewals are records of their own (Subscription Details): the checkout's
  // `transfer` stays its first charge, and its subscription follows subscription.* events.
  if (checkout.isSubscription && checkout.transfer && checkout.transfer.transaction_uuid !== t.transaction_uuid) return null;
  const transfer: TransferSummaryRecord = {
    transaction_uuid: t.transaction_uuid,
    processor_transaction_id: t.processor_transaction_id,
    status: "pending",
    amount: t.amount,
    currency: checkout.currency,
    initiated_at: t.transaction_date_time,
  };
  const recorded = await recordTransfer(deps, checkout, transfer);
  if (t.transaction_status === "pending") return recorded;
  return recordTransferStatus(deps, { checkout_id: checkout._id, transaction_uuid: t.transaction_uuid, status: t.transaction_status });
}
