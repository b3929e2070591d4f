import { AppError } from "@payrail/contracts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { RefundPayoutDeps } from "../transfers/transfer.deps.ts";

/**
 * The transaction a payout is asked for, if money may go back: it exists, its transfer
 * completed (money that has not arrived cannot be sent back), and the payout is in its currency
 * and not above its amount.
 */
export async function settledTransaction(
  deps: Pick<RefundPayoutDeps, "transactions">,
  input: { transaction_uuid: string; amount_cents: number; currency: string },
): Promise<TransactionDoc> {
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction) throw new AppError("transaction_not_found", `no transaction ${input.transaction_uuid}`, { param: "transaction_uuid" });
  if (transaction.transaction_status === "returned") throw transactionReturned(transaction._id);
  if (transaction.transaction_status !== "completed") {
    throw new AppError("transaction_not_settled", `transaction ${transaction._id} is ${transaction.transaction_status}, not completed`);
  }
  if (input.currency !== transaction.currency || input.amount_cents > transaction.amountCents) {
    throw new AppError("parameter_invalid", "a refund never exceeds the transaction's amount", { param: "amount_cents" });
  }
  return transaction;
}

/**
 * Where a refund of the transaction takes the money from and sends it to: the ends of its own
 * transfer, swapped. Records written before the transaction kept them find them on the
 * checkout's transfer attempt.
 */
export async function refundPayoutEnds(deps: Pick<RefundPayoutDeps, "attempts">, transaction: TransactionDoc): Promise<{ merchant: string; consumer: string }> {
  if (transaction.sourceFundingSource && transaction.destinationFundingSource) {
    return { merchant: transaction.destinationFundingSource, consumer: transaction.sourceFundingSource };
  }
  const attempt = await deps.attempts.find(transaction.checkoutRef);
  if (!attempt?.fundingSourceUrl) throw new Error(`transaction ${transaction._id} has no recorded funding source`);
  return { merchant: attempt.destinationFundingSource, consumer: attempt.fundingSourceUrl };
}

/** The bank took the money back after it settled: there is nothing left to refund (docs/api-notes.md, Returns and blocked bank accounts). */
export function transactionReturned(transactionUuid: string): AppError {
  return new AppError("transaction_returned", `transaction ${transactionUuid} was returned by the bank after it settled; it cannot be refunded`, { param: "transaction_uuid" });
}
