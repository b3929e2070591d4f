import { transactionEvent } from "../payment-events.ts";
import type { RequestMeta } from "../ports/checkouts.port.ts";
import type { TransactionDoc } from "../transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfer-attempt.entity.ts";
import type { TransferDeps } from "../transfer.deps.ts";

/**
 * The approved debit's transfer exists: its held record becomes `pending` with the transfer's
 * id, and only now carries transaction.created (the checkout follows it as any first charge),
 * in one conditional write on `in_review`. A racing or resumed call finds it moved and writes nothing.
 */
export async function releaseHeldRecord(deps: TransferDeps, meta: RequestMeta, held: TransactionDoc, a: TransferAttemptRecord): Promise<void> {
  const at = a.initiatedAt!;
  const set = { transaction_status: "pending" as const, processor_transaction_id: a.transferId!, transaction_date_time: at, updated_at: at };
  const after: TransactionDoc = { ...held, ...set, version: (held.version ?? 1) + 1 };
  if (await deps.transactions.release(held._id, held.version, set, transactionEvent(after, deps.livemode))) {
    deps.events.written();
    await deps.transferRecorded(meta.requestId, a.transferId!);
  }
}
