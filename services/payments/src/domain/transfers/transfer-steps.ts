import { AppError } from "@payrail/contracts";
import type { LeaseHeartbeat } from "@payrail/runtime";
import { chargeEntryDescription } from "./company-entry-description.ts";
import { createTransferOnce } from "./create-transfer-once.ts";
import { releaseHeldRecord } from "../fraud/release-held-record.ts";
import { reviewGate } from "../fraud/review-gate.ts";
import { transactionEvent } from "../shared/payment-events.ts";
import { transactionDoc } from "../transactions/transaction-doc.ts";
export { transactionDoc, type ChargeFacts } from "../transactions/transaction-doc.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { AttemptProgress, TransferAttemptRecord } from "./transfer-attempt.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";

/**
 * The three steps of the specification plus the record that follows (with its
 * transaction.created event, which the checkout follows), for an attempt this call holds the
 * lease on. A step already recorded is skipped; a step's provider call carries
 * an idempotency key derived from the attempt, so even a step whose result was lost (a crash
 * between the provider's answer and our write) is deduplicated by the provider. The transfer's
 * id is written on the attempt with its completion, after the record: the record names it, so
 * a call resumed in between finds it there (recordedTransfer), and one resumed before the
 * record asks the provider by the key.
 * `lease.check()` comes before every provider call and every write: a call whose heartbeat
 * found the lease lost stops there, even before the writes that are not conditional on it
 * (the transaction id drawn, the record inserted).
 */
export async function runTransferSteps(
  deps: TransferDeps,
  meta: RequestMeta,
  attempt: TransferAttemptRecord,
  leaseId: string,
  lease: Pick<LeaseHeartbeat, "check" | "stop">,
): Promise<TransferAttemptRecord> {
  let a = attempt;
  // Only a call that finds the funding source recorded can follow one that asked for the
  // transfer: the transfer is asked for after that write.
  const resumed = attempt.fundingSourceUrl !== null;
  const written = (next: TransferAttemptRecord | null) => {
    // The lease ran out and another call took over: stop; that call finishes the work.
    if (!next) throw new AppError("transfer_in_progress", `the transfer for checkout ${a._id} is being started by another call`, { retryAfter: 1 });
    a = next;
  };
  const save = async (progress: AttemptProgress) => {
    lease.check();
    written(await deps.attempts.saveProgress(a._id, leaseId, progress, deps.now().toISOString()));
  };

  // The processor token, the provider's customer and the funding source are recorded in one
  // write. A call that dies before it asks for them again, and every repeat is harmless:
  // another processor token for the same account, the customer found by its user, and the
  // funding source answered by its idempotency key with the one first made.
  if (!a.fundingSourceUrl) {
    lease.check();
    const processorToken = a.processorTokenSealed
      ? deps.secretBox.open(a.processorTokenSealed, a._id)
      : (await deps.bankData.createProcessorToken({ accessToken: deps.secretBox.open(a.accessTokenSealed, a._id), accountId: a.accountId, processor: "dwolla" })).processorToken;
    lease.check();
    const customerUrl = a.customerUrl ?? (await deps.transfers.ensureCustomer({ userId: a.userId, phone: a.userPhone })).customerUrl;
    lease.check();
    const source = await deps.transfers.createFundingSource({
      customerUrl,
      processorToken,
      name: `Payrail checkout ${a._id}`,
      idempotencyKey: `${a.transactionUuid}-funding-source`,
    });
    await save({
      processorTokenSealed: a.processorTokenSealed ?? deps.secretBox.seal(processorToken, a._id),
      customerUrl,
      fundingSourceUrl: source.fundingSourceUrl,
      fundingFingerprint: source.fingerprint,
    });
  }
  // A resumed call reads what the call before it left once: a record naming the transfer (only
  // the completion is left), a held one, or none. A call that found no funding source cannot
  // find a record: one is only written after that step.
  const existing = resumed ? await deps.transactions.findByUuid(a.transactionUuid) : null;
  if (!a.transferId) a = withRecordedTransfer(a, existing) ?? a;
  if (!a.transferId) {
    // Under the lease, once the account is known and before the provider is asked to debit it.
    // A call resumed after a crash (or the reconciler) may find the debit made before its id
    // was recorded: that one happened, and is recorded, neither blocked nor held for review.
    // The provider is asked only when a check would stop the debit, and at most once.
    let made: Promise<boolean> | undefined;
    const madeBefore = () => (made ??= resumed ? deps.transfers.findTransfer({ idempotencyKey: a.transactionUuid, customerUrl: a.customerUrl }).then((t) => t !== null) : Promise.resolve(false));
    lease.check();
    if ((await deps.blocks.find(a.fundingFingerprint)) && !(await madeBefore())) throw bankAccountBlocked(a._id);
    // Fraud screening (docs/decisions/0010-fraud-monitoring.md): a flagged debit waits for the merchant.
    if ((await reviewGate(deps, a, lease, (reviewId) => save({ reviewId }), madeBefore)) === "held") return a;
    const input = {
      sourceFundingSource: a.fundingSourceUrl!,
      destinationFundingSource: a.destinationFundingSource,
      amountCents: a.amountCents,
      currency: a.currency,
      idempotencyKey: a.transactionUuid,
      metadata: { checkout_id: a._id, transaction_uuid: a.transactionUuid, company_entry_description: chargeEntryDescription(a.companyEntryDescription, undefined) },
    };
    lease.check();
    const transfer = await createTransferOnce(deps, input, a.createdAt, async () => a.customerUrl);
    a = { ...a, transferId: transfer.transferId, initiatedAt: deps.now().toISOString() };
  }
  // The record read above keeps a resumed call from drawing (and wasting) another sequential id.
  if (existing?.transaction_status === "in_review") {
    lease.check();
    await releaseHeldRecord(deps, meta.requestId, existing, { transferId: a.transferId!, at: a.initiatedAt! });
  } else if (!existing) {
    lease.check();
    const id = await deps.transactions.nextId();
    lease.check();
    const doc = transactionDoc(a, id);
    // Only the insert that wins carries the event: a racing or resumed call writes nothing.
    if ((await deps.transactions.insertOnce(doc, transactionEvent(doc, deps.livemode))).inserted) {
      deps.events.written();
      await deps.transferRecorded(meta.requestId, doc.processor_transaction_id);
    }
  }
  // The transfer's id, completed, and the lease given back, in one write (runUnderTransferLease
  // releases it otherwise). The heartbeat stops first: a renewal landing after that write would
  // find the lease gone and report it lost.
  lease.check();
  lease.stop();
  written(await deps.attempts.complete(a._id, leaseId, { transferId: a.transferId!, initiatedAt: a.initiatedAt! }, deps.now().toISOString()));
  deps.logger.info({ requestId: meta.requestId, checkoutId: a._id, transactionUuid: a.transactionUuid }, "transfer started");
  return a;
}

/**
 * The attempt as its record shows it, when a call that stopped before completing had written
 * the record: its transfer was made (and checked before it was), and only the completion is
 * left. Null while there is no record, or only a held one (its transfer not made yet).
 */
export async function recordedTransfer(deps: Pick<TransferDeps, "transactions">, a: TransferAttemptRecord): Promise<TransferAttemptRecord | null> {
  return withRecordedTransfer(a, await deps.transactions.findByUuid(a.transactionUuid));
}

/** recordedTransfer on a record already read. */
function withRecordedTransfer(a: TransferAttemptRecord, record: TransactionDoc | null): TransferAttemptRecord | null {
  if (!record?.processor_transaction_id || record.transaction_status === "in_review") return null;
  return { ...a, transferId: record.processor_transaction_id, initiatedAt: record.transaction_date_time };
}

/** 409: the account had a return that forbids debits (docs/api-notes.md, Returns and blocked bank accounts); the consumer links another. */
export function bankAccountBlocked(checkoutId: string): AppError {
  return new AppError("bank_account_blocked", `the bank account of checkout ${checkoutId} is blocked after an ACH return; the consumer must link another account`, {
    param: "checkout_id",
  });
}

