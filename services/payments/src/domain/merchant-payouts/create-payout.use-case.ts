import { createTransferOnce } from "../transfers/create-transfer-once.ts";
import { pendingTransfer } from "../transfers/provider-transfer.record.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { TransferRefused } from "../transfers/ports/transfer.port.ts";
import { PAYOUT } from "../transfers/company-entry-description.ts";
import type { PayoutDeps } from "../transfers/transfer.deps.ts";
import type { PayoutTransferRecord } from "./payout-transfer.entity.ts";
import { settlePayoutTransfer } from "./settle-payout-transfer.ts";

export type StartedPayoutTransfer = { status: "pending"; transfer_id: string } | { status: "failed"; failure_code: string; failure_reason: string };

/** Why a live merchant's payout cannot go: no bank to send it to is configured (docs/decisions/0050-payouts.md). */
const NO_BANK = { code: "payout_funding_source_missing", reason: "The merchant has no payout bank account at the transfer provider" };

/**
 * Sends a ledger payout to the merchant's bank: one provider transfer from the merchant's funding
 * source (where its debits land) to its payout bank, at most once however often or concurrently
 * it is asked: the record, with both ends, is insert-or-get by payout id, which is also the
 * provider's idempotency key, so a retry after a crash between the provider's answer and the
 * record finds the same transfer. A refusal settles the payout transfer failed (with its event).
 */
export async function createPayout(
  deps: PayoutDeps,
  meta: RequestMeta,
  input: { payout_id: string; merchant_id: string; amount_cents: number; currency: string },
): Promise<StartedPayoutTransfer> {
  const found = await payoutEnds(deps, meta, input.merchant_id);
  const record = await deps.payoutTransfers.findOrCreate(
    pendingTransfer<PayoutTransferRecord>(
      {
        _id: input.payout_id,
        merchantId: input.merchant_id,
        amountCents: input.amount_cents,
        currency: input.currency,
        ...(found ? { sourceFundingSource: found.source, destinationFundingSource: found.bank } : {}),
      },
      deps.now().toISOString(),
    ),
  );
  const known = answerOf(record);
  if (known) return known;
  // The first try's ends, not this one's: the same key must always name the same transfer. A
  // record without them sent nothing yet (its first try found no bank, then stopped before
  // settling it failed), so this try's ends are as good.
  const ends = record.sourceFundingSource && record.destinationFundingSource ? { source: record.sourceFundingSource, bank: record.destinationFundingSource } : found;
  if (!ends) {
    await settlePayoutTransfer(deps, record, "failed", NO_BANK);
    return { status: "failed", failure_code: NO_BANK.code, failure_reason: NO_BANK.reason };
  }
  try {
    const transfer = await createTransferOnce(
      deps,
      {
        sourceFundingSource: ends.source,
        destinationFundingSource: ends.bank,
        amountCents: record.amountCents,
        currency: record.currency,
        idempotencyKey: record._id,
        metadata: { payout_id: record._id, company_entry_description: PAYOUT },
      },
      record.createdAt,
      async () => null,
    );
    await deps.payoutTransfers.recordTransferId(record._id, transfer.transferId, deps.now().toISOString());
    await deps.transferRecorded(meta.requestId, transfer.transferId);
    deps.logger.info({ requestId: meta.requestId, payoutId: record._id, merchantId: record.merchantId }, "payout transfer started");
    return { status: "pending", transfer_id: transfer.transferId };
  } catch (err) {
    // Any other failure may not be final (no answer came): the ledger's next try uses the same key.
    if (!(err instanceof TransferRefused)) throw err;
    const failure = { code: err.providerCode ?? "refused", reason: err.message };
    await settlePayoutTransfer(deps, record, "failed", failure);
    deps.logger.warn({ requestId: meta.requestId, payoutId: record._id, failureCode: failure.code }, "payout transfer refused");
    return { status: "failed", failure_code: failure.code, failure_reason: failure.reason };
  }
}

/** What a payout transfer that got as far as the provider answers; null before. */
function answerOf(record: PayoutTransferRecord): StartedPayoutTransfer | null {
  if (record.transferId) return { status: "pending", transfer_id: record.transferId };
  if (record.status === "pending") return null;
  return { status: "failed", failure_code: record.failureCode ?? "refused", failure_reason: record.failureReason ?? "The transfer provider refused the transfer" };
}

/**
 * Where a payout leaves from and goes to: the merchant's funding source at the provider (where
 * its debits landed) and its bank (`payout_funding_source`). With sandbox providers both are
 * simulated when not configured; a live merchant without them gets none (docs/decisions/0050-payouts.md).
 */
async function payoutEnds(deps: PayoutDeps, meta: RequestMeta, merchantId: string): Promise<{ source: string; bank: string } | null> {
  const payee = await deps.merchants.payee(meta, merchantId);
  const source = payee.destinationFundingSource ?? (deps.sandbox ? `sandbox://merchants/${merchantId}/balance` : null);
  const bank = payee.payoutFundingSource ?? (deps.sandbox ? `sandbox://merchants/${merchantId}/bank` : null);
  return source && bank ? { source, bank } : null;
}
