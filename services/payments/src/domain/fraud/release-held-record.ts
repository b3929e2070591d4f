import { transactionEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { TransferRecordedDeps } from "../transfers/transfer-recorded.deps.ts";

/**
 * The approved debit's transfer exists: its held record becomes `pending` with the transfer's
 * id, and only now carries transaction.created (the checkout follows it as any first charge),
 * in one conditional write on `in_review`. A racing or resumed call finds it moved and writes nothing.
 */
export async function releaseHeldRecord(
  deps: { transactions: TransactionsPort } & PaymentEventsDeps & TransferRecordedDeps,
  requestId: string,
  held: TransactionDoc,
  transfer: { transferId: string; at: string },
): Promise<void> {
  const set = { transaction_status: "pending" as const, processor_transaction_id: transfer.transferId, transaction_date_time: transfer.at, updated_at: transfer.at };
  const after: TransactionDoc = { ...held, ...set, version: (held.version ?? 1) + 1 };
  if (await deps.transactions.release(held._id, held.version, set, transactionEvent(after, deps.livemode))) {
    deps.events.written();
    await deps.transferRecorded(requestId, transfer.transferId);
  }
}
