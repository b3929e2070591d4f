import { randomUUID } from "node:crypto";
import { AppError } from "@payrail/contracts";
import { prefixedHexId, withLeaseHeartbeat, type LeaseHeartbeat } from "@payrail/runtime";
import { transactionEvent } from "../shared/payment-events.ts";
import type { RenewalDeps } from "./renewal.deps.ts";
import type { RenewalCharge, TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { renewalRecordDoc } from "./renewal-record.ts";
import { releaseHeldRecord } from "../fraud/release-held-record.ts";
import { renewalReviewGate } from "../fraud/renewal-review-gate.ts";
import { requireDebitMandate } from "../mandates/require-debit-mandate.ts";
import { tellCheckoutBlocked } from "../returns/block-bank-account.ts";
import { renewalKey, sendCharge } from "./send-renewal-charge.ts";
import { amountForPeriod } from "./upcoming-charge.ts";

/**
 * Makes the subscription's due charge (a renewal, or a retry of a failed one), when it is due
 * by `by`: the renewal lease is claimed in one conditional write, the charge (with its own
 * transaction_uuid) is recorded before the provider is called, the transfer is started from the
 * saved funding source with the period's idempotency key, then the transaction record follows
 * with its transaction.created event. A charge left half-way by a crash is resumed here by the
 * next claimer, with the same key, so the provider answers the transfer it already started.
 * `at` dates the charge (the test clock's time in the sandbox). A transfer the provider refuses
 * for good ends the subscription. A charge a fraud rule flags is "held" until its review
 * closes (renewal-review-gate.ts). Answers "busy" when another charger holds the lease or
 * nothing was due.
 */
export async function chargeRenewal(deps: RenewalDeps, checkoutId: string, by: string, at: string = by): Promise<"charged" | "stopped" | "held" | "busy"> {
  const now = deps.now();
  const leaseId = randomUUID();
  const until = new Date(now.getTime() + deps.leaseMs);
  const claimed = await deps.schedules.claim(checkoutId, leaseId, by, now.toISOString(), until.toISOString());
  if (!claimed) return "busy";
  // Renewed while this charger works (a slow provider keeps it); a killed charger's runs out
  // within one lease, and the next claimer resumes the same charge.
  const heartbeat = {
    leaseMs: deps.leaseMs,
    until,
    now: deps.now,
    renew: (to: Date) => deps.schedules.renewLease(checkoutId, leaseId, to.toISOString()),
    release: () => deps.schedules.saveUnderLease(checkoutId, leaseId, { renewalLeaseId: null, renewalLeaseUntil: null }),
    lostError: () => inProgress(checkoutId),
    onLost: (reason: string) => deps.logger.warn({ checkoutId, reason }, "renewal lease lost; this charger stops"),
    onRenewError: (err: unknown) => deps.logger.warn({ err, checkoutId }, "could not renew the renewal lease; trying again"),
  };
  return withLeaseHeartbeat(heartbeat, (lease) => chargeUnderLease(deps, claimed, leaseId, lease, at));
}

/** The charge's steps, each provider call and write after `lease.check()`, the lease's state writes on its id. */
async function chargeUnderLease(
  deps: RenewalDeps,
  claimed: TransferAttemptRecord,
  leaseId: string,
  lease: Pick<LeaseHeartbeat, "check">,
  at: string,
): Promise<"charged" | "stopped" | "held"> {
  const checkoutId = claimed._id;
  let a = claimed;
  const save = async (set: Record<string, unknown>) => {
    lease.check();
    const next = await deps.schedules.saveUnderLease(checkoutId, leaseId, set);
    if (!next) throw inProgress(checkoutId);
    a = next;
  };
  if (!a.charge) {
    // Cancelled (or unpaid) since it was scheduled: nothing more is charged.
    if (a.subscriptionStatus !== "active" && a.subscriptionStatus !== "past_due") {
      await save({ nextChargeAt: null, renewalLeaseId: null, renewalLeaseUntil: null });
      return "stopped";
    }
    const charge: RenewalCharge = {
      period: a.period!,
      amountCents: amountForPeriod(a, a.period!),
      tryNumber: a.periodTry ?? 0,
      transactionUuid: prefixedHexId("sc-"),
      consumerTransactionId: randomUUID(),
      merchantTransactionId: randomUUID(),
      dueAt: a.nextChargeAt!,
      at,
      claimedAt: deps.now().toISOString(),
      transferId: null,
      recorded: false,
    };
    await save({ charge });
  }
  const charge = a.charge!;
  if (!charge.transferId) {
    // Under the lease, right before the provider call: a revoked mandate (a cancel that came
    // after the charge was claimed) stops the subscription's debits here.
    if (!charge.mandateId) {
      const mandateId = await mandateAllowingDebit(deps, a, charge);
      if (!mandateId) {
        await save({ charge: null, nextChargeAt: null, renewalLeaseId: null, renewalLeaseUntil: null });
        return "stopped";
      }
      await save({ "charge.mandateId": mandateId });
    }
    // A try resumed after a crash (marked sending) may have reached the provider already: that
    // debit happened and is recorded, neither blocked nor held for review. The provider is
    // asked only when a check would stop the charge, and at most once.
    let asked: Promise<{ transferId: string } | null> | undefined;
    const sentBefore = () =>
      (asked ??= a.charge!.sendingUntil ? deps.transfers.findTransfer({ idempotencyKey: renewalKey(a._id, a.charge!), customerUrl: a.customerUrl }) : Promise.resolve(null));
    // Under the lease, right before the provider call: a blocked account is not debited, the
    // subscription becomes `unpaid` (tellCheckoutBlocked).
    lease.check();
    const block = await deps.blocks.find(a.fundingFingerprint);
    if (block) {
      const sent = await sentBefore();
      if (!sent) {
        await tellCheckoutBlocked(deps, checkoutId, block);
        await save({ charge: null, nextChargeAt: null, renewalLeaseId: null, renewalLeaseUntil: null });
        deps.logger.info({ checkoutId, transactionUuid: charge.transactionUuid }, "renewal not sent: the bank account is blocked");
        return "stopped";
      }
      await save({ "charge.transferId": sent.transferId });
    } else {
      // Fraud screening (docs/decisions/0010-fraud-monitoring.md): a flagged renewal waits, unsent, for the merchant.
      const gate = await renewalReviewGate(deps, a, leaseId, lease, save, async () => (await sentBefore()) !== null);
      if (gate !== "send") return gate;
      if ((await sendCharge(deps, a, leaseId, lease, save)) === "stopped") return "stopped";
    }
  }
  await recordCharge(deps, a, a.charge!, lease);
  lease.check();
  await deps.schedules.finishCharge(checkoutId, leaseId, charge.transactionUuid);
  deps.logger.info({ checkoutId, transactionUuid: charge.transactionUuid, period: charge.period, try: charge.tryNumber }, "renewal charged");
  return "charged";
}

function inProgress(checkoutId: string): AppError {
  return new AppError("transfer_in_progress", `the renewal of ${checkoutId} is being charged by another call`, { retryAfter: 1 });
}

/** The subscription's mandate when it is active (it now records this debit); null, logged, when not. */
async function mandateAllowingDebit(deps: RenewalDeps, a: TransferAttemptRecord, charge: RenewalCharge): Promise<string | null> {
  try {
    return (await requireDebitMandate(deps, { checkoutId: a._id, merchantId: a.merchantId, userId: a.userId, accountId: a.accountId }, charge.at))._id;
  } catch (err) {
    if (!(err instanceof AppError && (err.code === "mandate_revoked" || err.code === "mandate_required"))) throw err;
    deps.logger.warn({ checkoutId: a._id, transactionUuid: charge.transactionUuid, code: err.code }, "renewal not charged: no active mandate");
    return null;
  }
}

async function recordCharge(deps: RenewalDeps, a: TransferAttemptRecord, charge: RenewalCharge, lease: Pick<LeaseHeartbeat, "check">): Promise<void> {
  // Look first so a resumed call does not draw (and waste) another sequential id.
  const existing = await deps.transactions.findByUuid(charge.transactionUuid);
  // A renewal held for review and then approved: its record leaves `in_review` now.
  if (existing?.transaction_status === "in_review") return releaseHeldRecord(deps, `renewal-${a._id}`, existing, { transferId: charge.transferId!, at: charge.at });
  if (existing) return;
  lease.check();
  const id = await deps.transactions.nextId();
  lease.check();
  const record = renewalRecordDoc(a, id, charge, charge.transferId!);
  // Only the insert that wins carries the event: a racing or resumed call writes nothing. The
  // event is dated now even when the test clock dates the charge later (payment-events.ts).
  if ((await deps.transactions.insertOnce(record, transactionEvent(record, deps.livemode, deps.now().toISOString()))).inserted) {
    deps.events.written();
    await deps.transferRecorded(`renewal-${a._id}`, record.processor_transaction_id);
  }
}
