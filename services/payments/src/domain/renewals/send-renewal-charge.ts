import { chargeEntryDescription } from "../transfers/company-entry-description.ts";
import { createTransferOnce } from "../transfers/create-transfer-once.ts";
import { applyChargeOutcome } from "./follow-subscription-charge.ts";
import { TransferRefused } from "../transfers/ports/transfer.port.ts";
import type { RenewalDeps } from "./renewal.deps.ts";
import type { RenewalCharge, TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import type { LeaseHeartbeat } from "@payrail/runtime";

/**
 * How long a charge counts as on its way to the provider once marked (a cancel meanwhile answers
 * 409 and is retried): beyond the provider call's own time limit (Dwolla's adapter: 7 s), and the
 * most a crashed charger can hold a cancel up.
 */
const SENDING_MS = 30_000;

/** The provider's idempotency key of one try of one period: no crash, retry or replica can charge it twice. */
export function renewalKey(checkoutId: string, charge: Pick<RenewalCharge, "period" | "tryNumber">): string {
  return charge.tryNumber === 0 ? `${checkoutId}-p${charge.period}` : `${checkoutId}-p${charge.period}-r${charge.tryNumber}`;
}

/**
 * Sends the claimed charge to the provider and records its transfer id; "stopped" when the
 * subscription was cancelled since the charge was claimed, or the provider refused it for good.
 */
export async function sendCharge(
  deps: RenewalDeps,
  claimed: TransferAttemptRecord,
  leaseId: string,
  lease: Pick<LeaseHeartbeat, "check">,
  save: (set: Record<string, unknown>) => Promise<void>,
): Promise<"sent" | "stopped"> {
  const checkoutId = claimed._id;
  const charge = claimed.charge!;
  // The subscription must still be live as the charge leaves: marked in one conditional write
  // that a cancel cannot cross (it waits while the charge is on its way, see
  // TransferAttemptsPort.cancelSubscription), so no debit follows a cancel that answered.
  lease.check();
  const sending = await deps.schedules.markSending(checkoutId, leaseId, new Date(deps.now().getTime() + SENDING_MS).toISOString());
  if (!sending) {
    // Cancelled since it was claimed. A try resumed after a crash may have reached the provider
    // before the cancel: that debit happened and is recorded; anything else is dropped unsent.
    const sent = await deps.transfers.findTransfer({ idempotencyKey: renewalKey(checkoutId, charge), customerUrl: claimed.customerUrl });
    if (!sent) {
      await save({ charge: null, nextChargeAt: null, renewalLeaseId: null, renewalLeaseUntil: null });
      deps.logger.info({ checkoutId, transactionUuid: charge.transactionUuid }, "renewal not sent: the subscription was cancelled after it was claimed");
      return "stopped";
    }
    await save({ "charge.transferId": sent.transferId });
    return "sent";
  }
  lease.check();
  const transfer = await startTransfer(deps, sending, sending.charge!);
  if (!transfer) {
    // Refused for good: no transfer, no record; the subscription ends (the lease is given back).
    lease.check();
    await applyChargeOutcome(deps, checkoutId, charge.transactionUuid, { completed: false, error: null, at: charge.at, refused: true });
    await deps.schedules.finishCharge(checkoutId, leaseId, charge.transactionUuid);
    return "stopped";
  }
  await save({ "charge.transferId": transfer.transferId });
  return "sent";
}

/** The renewal's transfer at the provider, or null when the provider refused it for good. */
async function startTransfer(deps: RenewalDeps, a: TransferAttemptRecord, charge: RenewalCharge): Promise<{ transferId: string } | null> {
  try {
    const input = {
      sourceFundingSource: a.fundingSourceUrl!,
      destinationFundingSource: a.destinationFundingSource,
      amountCents: charge.amountCents ?? a.amountCents,
      currency: a.currency,
      idempotencyKey: renewalKey(a._id, charge),
      metadata: { checkout_id: a._id, transaction_uuid: charge.transactionUuid, company_entry_description: chargeEntryDescription(a.companyEntryDescription, charge.tryNumber) },
    };
    // A charge claimed before `claimedAt` was kept is looked up first (its key's age is unknown).
    return await createTransferOnce(deps, input, charge.claimedAt, async () => a.customerUrl);
  } catch (err) {
    if (!(err instanceof TransferRefused)) throw err;
    deps.logger.warn({ checkoutId: a._id, transactionUuid: charge.transactionUuid, err: err.message }, "renewal transfer refused by the provider");
    return null;
  }
}
