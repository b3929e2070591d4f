import type { TransactionDoc, TransactionStatus } from "../transactions/transaction.entity.ts";
import { transferFailureReason } from "./failure-reason.ts";
import { returnGroupOf } from "../returns/return-groups.ts";
import { transactionEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { TransactionChange, TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { AmountStatsPort } from "../fraud/ports/amount-stats.port.ts";

/** Writes that lose to a concurrent one (a refund reserving cents) read again; a few at most. */
const TRIES = 5;

/** What the provider says a transfer ended as, with its ACH return code once failed. */
export interface ProviderOutcome {
  status: "completed" | "failed" | "cancelled";
  failureCode?: string | undefined;
}

/**
 * A transaction record follows the provider's final word, with its transaction.* event in the
 * same conditional write (on the status and the version as read): `pending` becomes final, and
 * a `completed` one that the provider now reports failed was returned by the bank after it
 * settled (docs/api-notes.md, Returns and blocked bank accounts: `returned`, which banks may send up to 60 days later). Nothing else
 * moves: a replay, or a late `completed`, answers the record as it stands.
 */
export async function settleTransaction(
  deps: { transactions: TransactionsPort; amountStats?: AmountStatsPort } & PaymentEventsDeps,
  transaction: TransactionDoc,
  outcome: ProviderOutcome,
  at: string,
): Promise<TransactionDoc> {
  let current: TransactionDoc | null = transaction;
  for (let i = 0; i < TRIES && current; i++) {
    const change = changeFor(current.transaction_status, outcome, at);
    if (!change) return current;
    const after: TransactionDoc = { ...current, ...change, transaction_status: change.status, updated_at: at, version: (current.version ?? 0) + 1 };
    const moved = await deps.transactions.settle(current._id, { status: current.transaction_status, version: current.version }, change, transactionEvent(after, deps.livemode));
    if (moved) {
      deps.events.written();
      // The amount rule's distribution (fraud-rules.ts): counted by the write that settled it; a
      // crash right here loses one sample of thousands, which a statistic tolerates.
      if (change.status === "completed") await deps.amountStats?.add(moved.merchantId, moved.created_at, moved.amountCents);
      return moved;
    }
    current = await deps.transactions.findByUuid(transaction._id);
  }
  if (current && changeFor(current.transaction_status, outcome, at)) {
    throw new Error(`transaction ${transaction._id} kept changing; its status is applied on the next event`);
  }
  return current ?? transaction;
}

/** The change the provider's outcome makes to a record in status `from`, or null for none. */
function changeFor(from: TransactionStatus, outcome: ProviderOutcome, at: string): TransactionChange | null {
  const failed = outcome.status === "completed" ? null : (outcome.failureCode ?? outcome.status);
  const group = returnGroupOf(failed);
  const failure = failed
    ? { error: failed, failure_code: failed, failure_reason: transferFailureReason(failed), ...(group ? { returnGroup: group, returnLearntAt: at } : {}) }
    : { error: null };
  if (from === "pending") return { status: outcome.status, ...failure, at };
  if (from === "completed" && outcome.status === "failed") return { status: "returned", ...failure, returned_at: at, at };
  return null;
}
