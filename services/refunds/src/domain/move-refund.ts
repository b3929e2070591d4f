import type { DomainEvent, RefundStatus } from "@payrail/contracts";
import type { RefundChanges } from "./ports/refunds.port.ts";
import { refundEvent } from "./refund-events.ts";
import type { RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * Moves `refund`, as just read, to `to` in one conditional write that also stores the move's
 * event (the outbox); null when a racing call moved it first, which then wrote the only event.
 *
 * The event's snapshot and version are computed from the record read, not re-read after the
 * write: the write's filter is the read's status and payout attempt, and the state machine
 * reaches each (status, attempt) at most once, so a write that matches found the record as
 * read (its version included: only status changes count it). The one field another write may
 * change meanwhile, `refundTransactionId` while processing, is always set by moves out of
 * processing.
 */
export async function moveRefund(
  deps: RefundsDeps,
  refund: RefundDoc,
  to: RefundStatus,
  changes: RefundChanges,
  at: string,
  audit: readonly DomainEvent[] = [],
): Promise<RefundDoc | null> {
  const after: RefundDoc = { ...refund, ...changes, status: to, updatedAt: at, version: refund.version + 1 };
  const moved = await deps.refunds.move({
    refundId: refund._id,
    from: refund.status,
    attempt: refund.attempt,
    to,
    changes,
    at,
    event: refundEvent(after, deps.livemode),
    audit,
  });
  if (moved) deps.events.written();
  return moved;
}
