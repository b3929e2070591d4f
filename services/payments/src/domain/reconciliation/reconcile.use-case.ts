import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import { randomUUID } from "node:crypto";
import type { ReconcileChange, ReconcileReport } from "@payrail/contracts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { JobLeasesPort } from "../shared/ports/job-leases.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import { refreshTransfer } from "../transfers/refresh-transfer.ts";
import type { PayoutTransferRecord } from "../merchant-payouts/payout-transfer.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import type { StatusDeps, TransferDeps } from "../transfers/transfer.deps.ts";
import { runUnderTransferLease } from "../transfers/run-under-transfer-lease.ts";
import { recordedTransfer } from "../transfers/transfer-steps.ts";

/** What one pass needs: the status path, the transfer steps (to finish a stalled attempt) and the pass's lease. */
export interface ReconcileDeps extends StatusDeps, Omit<TransferDeps, keyof StatusDeps> {
  attempts: TransferAttemptsPort;
  paymentMethods: PaymentMethodsPort;
  jobs: JobLeasesPort;
}

/** Documents read per page; a pass reads at most PASS_LIMIT of each kind, the oldest first. */
const PAGE = 200;
const PASS_LIMIT = 10_000;
const EPOCH = "1970-01-01T00:00:00.000Z";

/**
 * One pass of the reconciler (docs/api-notes.md, Convergence with the provider): the provider is the
 * truth, and whatever Payrail missed is found again by asking it.
 * - every transaction and refund payout still `pending` past `afterMs` is read back from the
 *   provider and, if final there, applied as a notice would be (same writes, same events);
 * - every transfer attempt that stopped between "provider asked" and "record written" (a
 *   crash, or a call that gave up) is finished: the transfer is looked up by its idempotency
 *   key, and when the provider has it, the record is written with its event (never a second
 *   transfer: nothing here creates one);
 * - a payout whose provider id was never recorded is looked up the same way.
 * One pass at a time across replicas (the `reconciler` job lease); a replica that finds it held
 * answers `busy`. Errors on one item are logged and counted, and the pass goes on.
 */
export async function reconcile(deps: ReconcileDeps, options: { afterMs: number; leaseMs: number }): Promise<ReconcileReport> {
  const started = deps.now();
  const lease = await deps.jobs.take("reconciler", started.toISOString(), new Date(started.getTime() + options.leaseMs).toISOString());
  if (!lease) return { busy: true, checked: 0, errors: 0, changes: [] };
  const report: ReconcileReport = { busy: false, checked: 0, errors: 0, changes: [] };
  const before = new Date(started.getTime() - options.afterMs).toISOString();
  const meta: RequestMeta = { requestId: `reconcile-${started.toISOString()}`, principal: { kind: "service", service: "payments" } };
  const each = async (what: string, id: string, work: () => Promise<ReconcileChange | null>) => {
    report.checked++;
    try {
      const change = await work();
      if (change) report.changes.push(change);
    } catch (err) {
      report.errors++;
      deps.logger.warn({ err, requestId: meta.requestId, what, id }, "reconcile: could not bring this one to the provider's status; the next pass tries again");
    }
  };
  try {
    for await (const t of pages((after) => deps.transactions.pendingBetween(after, before, PAGE), (t) => t.updated_at)) {
      await each("transaction", t._id, async () => {
        const refreshed = await refreshTransfer(deps, meta, t.processor_transaction_id);
        const now = refreshed.kind === "transaction" ? refreshed.transaction.transaction_status : "pending";
        return now === "pending" ? null : { kind: "transaction", id: t._id, from: "pending", to: now };
      });
    }
    for await (const p of pages((after) => deps.refundTransfers.pendingBetween(after, before, PAGE), (p) => p.updatedAt)) {
      await each("payout", p._id, async () => {
        let transferId = p.transferId;
        if (!transferId) {
          const attempt = await deps.attempts.find((await deps.transactions.findByUuid(p.transactionUuid))?.checkoutRef ?? "");
          const found = await deps.transfers.findTransfer({ idempotencyKey: p._id, customerUrl: attempt?.customerUrl ?? null });
          if (!found) {
            await deps.refundTransfers.markReconciled(p._id, started.toISOString());
            return null;
          }
          transferId = found.transferId;
          await deps.refundTransfers.recordTransferId(p._id, transferId, deps.now().toISOString());
        }
        const refreshed = await refreshTransfer(deps, meta, transferId);
        const payout = refreshed.kind === "payout" ? refreshed.payout : null;
        if (payout) return { kind: "payout", id: p._id, from: "pending", to: payout.status };
        return p.transferId ? null : { kind: "payout", id: p._id, from: "no transfer recorded", to: "pending" };
      });
    }
    for await (const p of pages((after) => deps.payoutTransfers.pendingBetween(after, before, PAGE), (p) => p.updatedAt)) {
      await each("merchant payout", p._id, () => reconcilePayoutTransfer(deps, meta, p, started.toISOString()));
    }
    for (const a of await deps.attempts.stalled(before, PAGE)) {
      await each("attempt", a._id, () => finishStalledAttempt(deps, meta, a, started.toISOString()));
    }
  } finally {
    await deps.jobs.release("reconciler", lease);
  }
  if (report.changes.length > 0 || report.errors > 0) {
    deps.logger.info({ requestId: meta.requestId, checked: report.checked, changed: report.changes.length, errors: report.errors }, "reconcile pass done");
  }
  return report;
}

/**
 * An attempt with a funding source that never completed: a transfer the provider has (found by
 * the attempt's idempotency key) gets its record and event through the same steps a resumed
 * call runs; an attempt whose transfer the provider does not have moved no money, and is left
 * for the merchant's next call (it is not looked at again before the next cut-off).
 */
async function finishStalledAttempt(deps: ReconcileDeps, meta: RequestMeta, a: TransferAttemptRecord, at: string): Promise<ReconcileChange | null> {
  const leaseId = randomUUID();
  const until = new Date(Date.parse(at) + deps.leaseMs);
  const leased = await deps.attempts.acquireLease(a._id, leaseId, at, until.toISOString());
  if (!leased) return null;
  const released = async (err: unknown) => {
    await deps.attempts.releaseLease(a._id, leaseId);
    throw err;
  };
  // How far the call that stopped got: the transaction record written (it names the transfer;
  // only the completion is left), the transfer written on the attempt (as attempts made before
  // the record came first may be), or neither, when the provider is asked.
  const from = leased.transferId
    ? "transfer recorded, no transaction record"
    : (await recordedTransfer(deps, leased).catch(released))
      ? "transaction recorded, attempt not completed"
      : "no transfer recorded";
  if (from === "no transfer recorded") {
    const found = await deps.transfers.findTransfer({ idempotencyKey: leased.transactionUuid, customerUrl: leased.customerUrl }).catch(released);
    if (!found) {
      await deps.attempts.markReconciled(a._id, at);
      await deps.attempts.releaseLease(a._id, leaseId);
      return null;
    }
  }
  // With the transfer found, the steps record it (createTransferOnce finds it again by its key
  // when the key may have expired; within the window the key answers it) and write the record.
  const done = await runUnderTransferLease(deps, meta, leased, leaseId, until);
  return { kind: "attempt", id: a._id, from, to: `transaction ${done.transactionUuid}` };
}

/**
 * A merchant payout's transfer still pending past the cut-off: one whose provider id was never
 * recorded is looked up by its key (the payout id) among the transfers of its source's owner first; then it is read back and, if final,
 * settled as a notice would (payout_transfer.settled). Nothing here creates a transfer.
 */
async function reconcilePayoutTransfer(deps: ReconcileDeps, meta: RequestMeta, p: PayoutTransferRecord, at: string): Promise<ReconcileChange | null> {
  let transferId = p.transferId;
  if (!transferId) {
    const found = await deps.transfers.findTransfer({ idempotencyKey: p._id, customerUrl: null, fundingSourceUrl: p.sourceFundingSource ?? null });
    if (!found) {
      await deps.payoutTransfers.markReconciled(p._id, at);
      return null;
    }
    transferId = found.transferId;
    await deps.payoutTransfers.recordTransferId(p._id, transferId, deps.now().toISOString());
  }
  const refreshed = await refreshTransfer(deps, meta, transferId);
  const payout = refreshed.kind === "merchant_payout" ? refreshed.payout : null;
  if (payout) return { kind: "payout", id: p._id, from: "pending", to: payout.status };
  return p.transferId ? null : { kind: "payout", id: p._id, from: "no transfer recorded", to: "pending" };
}

/** Pages through a query ordered by a time field, from the oldest, up to PASS_LIMIT documents. */
async function* pages<T>(page: (after: string) => Promise<T[]>, timeOf: (doc: T) => string): AsyncGenerator<T> {
  let after = EPOCH;
  let seen = 0;
  while (seen < PASS_LIMIT) {
    const docs = await page(after);
    for (const doc of docs) yield doc;
    seen += docs.length;
    if (docs.length < PAGE) return;
    after = timeOf(docs[docs.length - 1]!);
  }
}
