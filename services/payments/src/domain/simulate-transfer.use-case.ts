import { AppError, type MerchantPrincipal, type RefundRecord, type TransactionRecord } from "@payrail/contracts";
import { applyRefundTransferStatus } from "./apply-refund-transfer-status.ts";
import { applyTransferStatus } from "./apply-transfer-status.use-case.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import { toTransactionRecord } from "./transaction.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * Sandbox: the merchant completes or fails one of its own pending transfers. The simulator
 * moves the sandbox transfer; the status then travels the webhook path (re-read, conditional
 * moves), so the sandbox exercises exactly the code live webhooks run. A refund's transfer is
 * simulated the same way, by its `refund_transaction_id` in place of the transaction_uuid.
 */
export async function simulateTransfer(
  deps: TransferDeps,
  meta: RequestMeta,
  merchant: MerchantPrincipal,
  input: SimulateInput,
): Promise<TransactionRecord | RefundRecord> {
  if (!deps.simulator) throw new AppError("route_not_found", "transfer simulations exist in sandbox mode only");
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction) return simulateRefundTransfer(deps, meta, merchant, input);
  if (transaction.merchantId !== merchant.merchantId) {
    throw new AppError("transaction_not_found", `no transaction ${input.transaction_uuid}`, { param: "transaction_uuid" });
  }
  const { event } = await deps.simulator.simulate(transaction.processor_transaction_id, {
    status: input.status,
    ...(input.failure_code ? { failureCode: input.failure_code } : {}),
  });
  // No event: the transfer was already final before any status was ever reported; nothing to apply.
  if (event) await applyTransferStatus(deps, meta, event);
  return toTransactionRecord((await deps.transactions.findByUuid(transaction._id)) ?? transaction);
}

type SimulateInput = { transaction_uuid: string; status: "completed" | "failed"; failure_code?: string | undefined };

/** The refund transfer with this provider id, of this merchant's refunds; answers the refund. */
async function simulateRefundTransfer(
  deps: TransferDeps,
  meta: RequestMeta,
  merchant: MerchantPrincipal,
  input: SimulateInput,
): Promise<RefundRecord> {
  const record = await deps.refundTransfers.findByTransferId(input.transaction_uuid);
  if (!record?.transferId || record.merchantId !== merchant.merchantId) {
    throw new AppError("transaction_not_found", `no transaction or refund transfer ${input.transaction_uuid}`, { param: "transaction_uuid" });
  }
  const { event } = await deps.simulator!.simulate(record.transferId, {
    status: input.status,
    ...(input.failure_code ? { failureCode: input.failure_code } : {}),
  });
  const applied = event ? await applyTransferStatus(deps, meta, event) : null;
  // A repeated simulation (its event applied before) still answers the refund as it is now.
  const refund = applied?.refund ?? (await applyRefundTransferStatus(deps, meta, record));
  if (!refund) throw new Error(`refund transfer ${record.transferId} is still pending after its simulation`);
  return refund;
}
