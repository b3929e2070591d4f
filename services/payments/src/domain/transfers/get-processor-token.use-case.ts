import { AppError, type CheckoutSummary, type MerchantPrincipal } from "@payrail/contracts";
import { prefixedHexId, randomUUID } from "@payrail/runtime";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { leaseHeld, type TransferAttemptRecord } from "./transfer-attempt.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";
import { runUnderTransferLease, transferInProgress } from "./run-under-transfer-lease.ts";
import { recordedTransfer } from "./transfer-steps.ts";
import { requireDebitMandate } from "../mandates/require-debit-mandate.ts";
import { checkoutEntryDescription } from "./company-entry-description.ts";
import { bankAccountNotValidated, validationOf } from "../bank-accounts/account-validation.ts";

export const TRANSACTION_EXECUTED = "Transaction executed";
export const TRANSACTION_HELD = "Transaction held for review";

/**
 * Get Processor Token: processor token → funding source → transfer, for the merchant's own
 * checkout. One attempt per checkout (its `_id` is the checkout id) and a lease on it make
 * concurrent calls safe: one works, the others answer 409 `transfer_in_progress`, and every
 * call after success answers the same body. A call that failed half-way leaves the attempt's
 * finished steps recorded, and the next call resumes from there.
 */
export async function getProcessorToken(
  deps: TransferDeps,
  meta: RequestMeta,
  merchant: MerchantPrincipal,
  checkoutId: string,
): Promise<ReturnType<typeof answer>> {
  // A repeat call (a retry, or a replay after success) is answered from the attempt alone, which
  // holds the checkout's merchant: no call to the checkout service, and, while another call
  // visibly holds the lease, no write either. Refusals are most of what retrying merchants send,
  // and a refusal that wrote would take the attempt's write lock (on FerretDB), queueing the
  // holder's own lease renewals and steps behind the crowd.
  const found = await deps.attempts.find(checkoutId);
  if (found) {
    if (found.merchantId !== merchant.merchantId) throw checkoutNotFound(checkoutId);
    return answer(await resumeAttempt(deps, meta, found));
  }
  const checkout = await deps.checkouts.getSummary(meta, checkoutId);
  // Payments asks checkout on its own account: another merchant's checkout is as absent as an unknown one.
  if (checkout.merchant_id !== merchant.merchantId) throw checkoutNotFound(checkoutId);
  // The first call inserts the attempt with its lease already taken: one write fewer than
  // inserting it free and then taking the lease. A racing first call finds it leased.
  const lease = newLease(deps);
  const attempt = await startAttempt(deps, meta, checkout, lease);
  if (attempt.leaseId === lease.leaseId) return answer(await runLeased(deps, meta, { ...lease, attempt }));
  return answer(await resumeAttempt(deps, meta, attempt));
}

/**
 * An attempt another call made: its result once completed; 409 while a call visibly holds its
 * lease, read and not written (stale at worst: a lease that has just run out is refused once
 * more, and the retry takes it); otherwise this call takes the lease and finishes the work.
 */
async function resumeAttempt(deps: TransferDeps, meta: RequestMeta, attempt: TransferAttemptRecord): Promise<TransferAttemptRecord> {
  if (attempt.completed) return attempt;
  if (leaseHeld(attempt, deps.now().toISOString())) throw transferInProgress(attempt._id);
  return runFirstCharge(deps, meta, attempt._id);
}

/** A lease this call may take: its id, and its end counted from now. */
interface Lease {
  leaseId: string;
  now: Date;
  until: Date;
}

function newLease(deps: TransferDeps): Lease {
  const now = deps.now();
  return { leaseId: randomUUID(), now, until: new Date(now.getTime() + deps.leaseMs) };
}

/**
 * Takes the checkout's transfer lease and runs (or resumes) its first debit: the mandate is
 * checked under the lease before any provider step, then the steps run (screening included).
 * Another holder: 409 `transfer_in_progress`, or its result when it completed meanwhile.
 * Get Processor Token, a review's approval and the review sweep all come this way.
 */
export async function runFirstCharge(deps: TransferDeps, meta: RequestMeta, checkoutId: string): Promise<TransferAttemptRecord> {
  const lease = newLease(deps);
  const leased = await deps.attempts.acquireLease(checkoutId, lease.leaseId, lease.now.toISOString(), lease.until.toISOString());
  if (!leased) {
    const current = await deps.attempts.find(checkoutId);
    if (current?.completed) return current;
    throw transferInProgress(checkoutId);
  }
  return runLeased(deps, meta, { ...lease, attempt: leased });
}

/** The first debit of an attempt this call holds the lease on: the mandate checked, then the steps. */
function runLeased(deps: TransferDeps, meta: RequestMeta, { attempt, leaseId, until }: Lease & { attempt: TransferAttemptRecord }): Promise<TransferAttemptRecord> {
  const checkoutId = attempt._id;
  // Under the lease, before any provider step: no debit without an active mandate (docs/api-notes.md, Mandates).
  const mandateFirst = async () => {
    if (attempt.transferId) return;
    // A call that died after writing the record, before completing: its debit was checked then.
    if (attempt.fundingSourceUrl && (await recordedTransfer(deps, attempt))) return;
    const { merchantId, userId, accountId } = attempt;
    await requireDebitMandate(deps, { checkoutId, merchantId, userId, accountId, firstDebit: true }, deps.now().toISOString());
  };
  // The lease is short and renewed while this call works (runUnderTransferLease).
  return runUnderTransferLease(deps, meta, attempt, leaseId, until, mandateFirst);
}

/**
 * The first call for a checkout fixes what will be transferred, and from where to where, and
 * holds `lease` on it; a racing first call's attempt is answered as it is.
 */
async function startAttempt(deps: TransferDeps, meta: RequestMeta, checkout: CheckoutSummary, lease: Lease): Promise<TransferAttemptRecord> {
  // The checkout learns of a saved payment method from payments' event, so it may still say
  // `open` for a moment after the exchange answered: payments' own record is what counts.
  if (checkout.status !== "payment_method_saved" && checkout.status !== "open") {
    throw new AppError("checkout_closed", `checkout ${checkout.id} is ${checkout.status}`, { param: "checkout_id" });
  }
  const method = await deps.paymentMethods.findByCheckout(checkout.id);
  if (!method) throw paymentMethodMissing(checkout.id);
  // Before the attempt fixes the account: the consumer may still link another one instead.
  // The check that counts is the one under the lease (requireDebitMandate).
  if (!validationOf(method)) throw bankAccountNotValidated(checkout.id);
  const payee = await deps.merchants.payee(meta, checkout.merchant_id);
  const destination = payee.destinationFundingSource ?? (deps.sandbox ? `sandbox://merchants/${checkout.merchant_id}/balance` : null);
  if (!destination) {
    throw new AppError("destination_funding_source_missing", "the merchant has no destination_funding_source to receive transfers");
  }
  const now = deps.now().toISOString();
  return deps.attempts.findOrCreate({
    _id: checkout.id,
    merchantId: checkout.merchant_id,
    userId: method.userId,
    userPhone: method.userPhone,
    checkoutNumber: checkout.number,
    amountCents: checkout.amount_cents,
    currency: checkout.currency,
    isSubscription: checkout.is_subscription,
    planType: checkout.plan_type ?? null,
    transactionUuid: prefixedHexId("sc-"),
    consumerTransactionId: randomUUID(),
    merchantTransactionId: randomUUID(),
    accessTokenSealed: method.accessTokenSealed,
    accountId: method.accountId,
    destinationFundingSource: destination,
    companyEntryDescription: checkoutEntryDescription(checkout.transaction_purpose, payee),
    processorTokenSealed: null,
    customerUrl: null,
    fundingSourceUrl: null,
    transferId: null,
    initiatedAt: null,
    completed: false,
    leaseId: lease.leaseId,
    leaseUntil: lease.until.toISOString(),
    createdAt: now,
    updatedAt: now,
  });
}

function answer(attempt: TransferAttemptRecord) {
  // Held by a fraud rule: no transfer yet; the merchant decides (docs/decisions/0010-fraud-monitoring.md).
  if (attempt.reviewId && !attempt.transferId) {
    return { message: TRANSACTION_HELD, transaction_uuid: attempt.transactionUuid, transaction_id: "", transaction_status: "in_review" as const, review_id: attempt.reviewId };
  }
  return { message: TRANSACTION_EXECUTED, transaction_uuid: attempt.transactionUuid, transaction_id: attempt.transferId ?? "" };
}

function checkoutNotFound(checkoutId: string): AppError {
  return new AppError("checkout_not_found", `no checkout ${checkoutId}`, { param: "checkout_id" });
}

function paymentMethodMissing(checkoutId: string): AppError {
  return new AppError("payment_method_missing", `checkout ${checkoutId} has no saved payment method yet`, { param: "checkout_id" });
}
