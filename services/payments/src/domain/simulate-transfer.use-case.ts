import { AppError, type MerchantPrincipal, type TransactionRecord } from "@payrail/contracts";
import { applyTransferStatus } from "./apply-transfer-status.use-case.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import { toTransactionRecord } from "./transaction.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";

/**
 * Sandbox: the merchant completes or fails one of its own pending transfers. The simulator
 * moves the sandbox transfer; the status then travels the webhook path (re-read, conditional
 * moves), so the sandbox exercises exactly the code live webhooks run.
 */
export async function simulateTransfer(
  deps: TransferDeps,
  meta: RequestMeta,
  merchant: MerchantPrincipal,
  input: { transaction_uuid: string; status: "completed" | "failed"; failure_code?: string | undefined },
): Promise<TransactionRecord> {
  if (!deps.simulator) throw new AppError("route_not_found", "transfer simulations exist in sandbox mode only");
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction || transaction.merchantId !== merchant.merchantId) {
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
