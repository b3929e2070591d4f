import type { PayoutTransferSnapshot } from "@payrail/contracts";
import { envelope, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { PayoutTransfersPort } from "./ports/payout-transfers.port.ts";
import { toPayoutTransferSnapshot, type PayoutTransferRecord } from "./payout-transfer.entity.ts";

/**
 * A payout's transfer is final: the record moves once, in the one conditional write that also
 * stores payout_transfer.settled for the ledger (the payout becomes `paid`, or `failed` and its
 * amount goes back to the balance). A repeat finds the record settled and only answers.
 */
export async function settlePayoutTransfer(
  deps: { payoutTransfers: PayoutTransfersPort; now(): Date } & PaymentEventsDeps,
  record: PayoutTransferRecord,
  status: "completed" | "failed" | "cancelled",
  failure: { code: string; reason: string } | null,
): Promise<PayoutTransferSnapshot> {
  const at = deps.now().toISOString();
  const moved = await deps.payoutTransfers.settle(record._id, status, failure, at, (after) =>
    envelope("payout_transfer.settled", { type: "payout_transfer", id: after._id, version: 1 }, after.merchantId, at, toPayoutTransferSnapshot(after), deps.livemode),
  );
  if (moved) deps.events.written();
  const now = moved ?? (await deps.payoutTransfers.find(record._id)) ?? record;
  return toPayoutTransferSnapshot(now);
}
