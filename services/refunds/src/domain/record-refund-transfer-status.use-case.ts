import { AppError, type RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { releasesClaim } from "./refund-state.ts";
import { toRefundRecord } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * Payments reports the refund transfer's final status: `processing` → `completed` | `failed`
 * in one conditional write (which also records the transfer id, should the initiating call
 * have died before it could). A final refund never moves; a replay answers it as it is. A
 * failed refund frees the transaction for a new refund request.
 */
export async function recordRefundTransferStatus(
  deps: RefundsDeps,
  meta: RequestMeta,
  input: { refund_id: string; transfer_id: string; status: "completed" | "failed"; failure_code?: string | undefined },
): Promise<RefundRecord> {
  const moved = await deps.refunds.move(
    input.refund_id,
    "processing",
    input.status,
    { refundTransactionId: input.transfer_id, failureCode: input.status === "failed" ? (input.failure_code ?? null) : null },
    deps.now().toISOString(),
  );
  const refund = moved ?? (await deps.refunds.find(input.refund_id));
  if (!refund) throw new AppError("refund_not_found", `no refund ${input.refund_id}`, { param: "refund_id" });
  if (moved) {
    deps.logger.info({ requestId: meta.requestId, refundId: refund._id, status: refund.status, failureCode: refund.failureCode }, "refund transfer settled");
  } else if (refund.status !== "completed" && refund.status !== "failed") {
    // Only a processing refund has a transfer: this report does not fit the record. Say so, change nothing.
    deps.logger.warn({ requestId: meta.requestId, refundId: refund._id, status: refund.status }, "refund transfer status for a refund not processing ignored");
  }
  if (releasesClaim(refund.status)) await deps.claims.release(refund.transactionUuid, refund._id);
  return toRefundRecord(refund);
}
