import type { PayoutTransferSnapshot } from "@payrail/contracts";
import { transferFailureReason } from "../transfers/failure-reason.ts";
import type { StatusDeps } from "../transfers/transfer.deps.ts";
import type { PayoutTransferRecord } from "./payout-transfer.entity.ts";
import { settlePayoutTransfer } from "./settle-payout-transfer.ts";

/**
 * A payout transfer's status, re-read from the provider (a notice only says "look at it"), and
 * once final settled with its event. A settled payout answers as recorded. Null while pending.
 */
export async function applyPayoutTransferStatus(deps: StatusDeps, record: PayoutTransferRecord): Promise<PayoutTransferSnapshot | null> {
  if (!record.transferId) return null;
  const state = record.status === "pending" ? await deps.transfers.getTransfer(record.transferId) : { status: record.status, failureCode: record.failureCode ?? undefined };
  if (state.status === "pending") return null;
  const code = state.status === "completed" ? null : (state.failureCode ?? state.status);
  return settlePayoutTransfer(deps, record, state.status, code ? { code, reason: transferFailureReason(code) } : null);
}
