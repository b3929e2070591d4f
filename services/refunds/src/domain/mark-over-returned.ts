import { refundEvent } from "./refund-events.ts";
import type { RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";
import type { RequestMeta } from "./ports/payments.port.ts";

/**
 * A completed refund whose payment the bank also returned: the consumer has the money twice,
 * and only the merchant can recover it. The refund is marked (`over_returned_at`) with its
 * `refund.over_returned` event in one conditional write, once whichever path sees it first (the
 * return, or the payout completing after it); the books already hold both movements. Null when
 * it was not completed or already marked.
 */
export async function markOverReturned(deps: RefundsDeps, meta: RequestMeta, refund: RefundDoc): Promise<RefundDoc | null> {
  if (refund.status !== "completed" || refund.overReturnedAt) return null;
  const at = deps.now().toISOString();
  const after: RefundDoc = { ...refund, overReturnedAt: at, updatedAt: at, version: refund.version + 1 };
  const marked = await deps.refunds.markOverReturned(refund._id, at, refundEvent(after, deps.livemode, "refund.over_returned"));
  if (!marked) return null;
  deps.events.written();
  deps.logger.warn({ requestId: meta.requestId, refundId: refund._id, transactionUuid: refund.transactionUuid }, "refund paid out and its payment returned: the consumer got the money twice");
  return marked;
}
