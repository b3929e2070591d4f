import { auditEventsFrom, auditOrigin, nowIso, type AuditMeta } from "@payrail/runtime";
import { AppError, type AuditAction, type AuditObject, type AuditOrigin, type MerchantPrincipal, type PayoutTransferSnapshot, type RefundPayoutSnapshot, type TransactionRecord } from "@payrail/contracts";
import { applyPayoutTransferStatus } from "../merchant-payouts/apply-payout-transfer-status.ts";
import { applyRefundTransferStatus } from "../refund-payouts/apply-refund-transfer-status.ts";
import { applyTransferStatus } from "./apply-transfer-status.use-case.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { toTransactionRecord } from "../transactions/transaction.entity.ts";
import type { SimulateDeps } from "./transfer.deps.ts";

type Simulation = { status: "completed" | "failed"; failure_code?: string | undefined };

/**
 * Sandbox: the merchant completes or fails one of its own pending transfers. The simulator
 * moves the sandbox transfer; the status then travels the webhook path (re-read, conditional
 * moves, events), so the sandbox exercises exactly the code live webhooks run. The simulator's
 * write carries the merchant's audit entry; a simulation of a final transfer moves nothing and records nothing.
 */
export async function simulateTransfer(
  deps: SimulateDeps,
  meta: RequestMeta & AuditMeta,
  merchant: MerchantPrincipal,
  input: Simulation & { transaction_uuid: string },
): Promise<TransactionRecord> {
  const simulator = sandboxOnly(deps);
  const transaction = await deps.transactions.findByUuid(input.transaction_uuid);
  if (!transaction || transaction.merchantId !== merchant.merchantId) {
    throw new AppError("transaction_not_found", `no transaction ${input.transaction_uuid}`, { param: "transaction_uuid" });
  }
  const audit = simulationAudit(deps, auditOrigin(meta), merchant.merchantId, "transaction.simulated", { type: "transaction", id: transaction._id });
  const { changed, event } = await simulator.simulate(transaction.processor_transaction_id, simulation(input), audit);
  if (changed) deps.events.written();
  // No event: the transfer was already final before any status was ever reported; nothing to apply.
  if (event) await applyTransferStatus(deps, meta, event);
  return toTransactionRecord((await deps.transactions.findByUuid(transaction._id)) ?? transaction);
}

/**
 * Sandbox: the same for a refund's payout, named by its transfer id (the refund's
 * `refund_transaction_id`), of merchant `merchantId`'s refunds. Answers the payout's outcome (the
 * refunds service, which asked, moves the refund by it; the refund_payout.settled event says
 * the same to every subscriber). The request is refunds' own, so the merchant's actor and
 * address come in `input.audit`, as refunds resolved them; the simulator's write carries the
 * entry they make.
 */
export async function simulateRefundPayout(
  deps: SimulateDeps,
  meta: RequestMeta,
  merchantId: string,
  input: Simulation & { transfer_id: string; audit?: AuditOrigin | undefined },
): Promise<RefundPayoutSnapshot> {
  const simulator = sandboxOnly(deps);
  const record = await deps.refundTransfers.findByTransferId(input.transfer_id);
  if (!record?.transferId || record.merchantId !== merchantId) {
    throw new AppError("transaction_not_found", `no refund transfer ${input.transfer_id}`, { param: "transaction_uuid" });
  }
  const audit = simulationAudit(deps, input.audit, merchantId, "refund_payout.simulated", { type: "refund", id: record.refundId });
  // A settled payout stays as it settled (returns of payouts are not modelled): nothing to simulate.
  const { changed, event } = record.status === "pending" ? await simulator.simulate(record.transferId, simulation(input), audit) : { changed: false, event: null };
  if (changed) deps.events.written();
  const applied = event ? await applyTransferStatus(deps, meta, event) : null;
  // A repeated simulation (its event applied before) still answers the payout as it is now.
  const outcome = applied?.payout ?? (await applyRefundTransferStatus(deps, meta, record));
  if (!outcome) throw new Error(`refund transfer ${record.transferId} is still pending after its simulation`);
  return outcome;
}

/**
 * Sandbox: the merchant completes or fails its payout's pending transfer; the status then travels
 * the webhook path, whose payout_transfer.settled moves the ledger's payout. Answers the
 * transfer's outcome (as recorded, when it was final already). The simulator's write carries the
 * merchant's audit entry, as a transaction's simulation does.
 */
export async function simulatePayout(
  deps: SimulateDeps,
  meta: RequestMeta & AuditMeta,
  merchant: MerchantPrincipal,
  input: Simulation & { payout_id: string },
): Promise<PayoutTransferSnapshot> {
  const simulator = sandboxOnly(deps);
  const record = await deps.payoutTransfers.find(input.payout_id);
  if (!record || record.merchantId !== merchant.merchantId) throw new AppError("payout_not_found", `no payout ${input.payout_id}`, { param: "id" });
  if (!record.transferId) {
    if (record.status === "pending") throw new AppError("payout_not_found", `payout ${input.payout_id} has no transfer yet`, { param: "id" });
    return applied(await applyPayoutTransferStatus(deps, record), record._id);
  }
  const audit = simulationAudit(deps, auditOrigin(meta), merchant.merchantId, "payout.simulated", { type: "payout", id: record._id });
  const { changed, event } = record.status === "pending" ? await simulator.simulate(record.transferId, simulation(input), audit) : { changed: false, event: null };
  if (changed) deps.events.written();
  if (event) await applyTransferStatus(deps, meta, event);
  return applied(await applyPayoutTransferStatus(deps, (await deps.payoutTransfers.find(record._id)) ?? record), record._id);
}

function applied<T>(outcome: T | null, id: string): T {
  if (!outcome) throw new Error(`payout transfer ${id} is still pending after its simulation`);
  return outcome;
}

/** The audit entry of a merchant's simulation, for the simulator's write; none without an actor. */
function simulationAudit(deps: SimulateDeps, origin: AuditOrigin | null | undefined, merchantId: string, action: AuditAction, object: AuditObject) {
  return auditEventsFrom(origin, { service: "payments", merchantId, action, object, at: nowIso(), livemode: deps.livemode });
}

function sandboxOnly(deps: SimulateDeps) {
  if (!deps.simulator) throw new AppError("route_not_found", "transfer simulations exist in sandbox mode only");
  return deps.simulator;
}

function simulation(input: Simulation) {
  return { status: input.status, ...(input.failure_code ? { failureCode: input.failure_code } : {}) };
}
