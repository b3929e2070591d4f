import type { TransactionDoc, TransactionStatus } from "./transaction.entity.ts";
import { transactionEvent, type PaymentEventsDeps } from "./payment-events.ts";
import type { TransactionsPort } from "./ports/transactions.port.ts";

/** Writes that lose to a concurrent one (a refund reserving cents) read again; a few at most. */
const TRIES = 5;

/**
 * A pending transaction record becomes final, with its transaction.completed / .failed event in
 * the same conditional write (on the status and the version as read). Answers the moved record,
 * or the record as it stands when it was final already (a replay, a late event): final stays final.
 */
export async function settleTransaction(
  deps: { transactions: TransactionsPort } & PaymentEventsDeps,
  transaction: TransactionDoc,
  status: Exclude<TransactionStatus, "pending">,
  error: string | null,
  at: string,
): Promise<TransactionDoc> {
  let current: TransactionDoc | null = transaction;
  for (let i = 0; i < TRIES && current?.transaction_status === "pending"; i++) {
    const after: TransactionDoc = { ...current, transaction_status: status, error, updated_at: at, version: (current.version ?? 0) + 1 };
    const moved = await deps.transactions.settle(current._id, current.version, { status, error, at }, transactionEvent(after, deps.livemode));
    if (moved) {
      deps.events.written();
      return moved;
    }
    current = await deps.transactions.findByUuid(transaction._id);
  }
  if (current?.transaction_status === "pending") throw new Error(`transaction ${transaction._id} kept changing; its status is applied on the next event`);
  return current ?? transaction;
}
