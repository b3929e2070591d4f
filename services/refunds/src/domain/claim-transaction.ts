import { AppError } from "@payrail/contracts";
import type { RefundClaim } from "./ports/refund-claims.port.ts";
import { releasesClaim } from "./refund-state.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/** How long a claim may stand without its refund record before it counts as a dead request's. */
export const ORPHAN_CLAIM_MS = 60_000;

/**
 * Claims the transaction for a new refund, or fails with 409 `refund_exists`. A claim is
 * normally freed by the move that ends its refund (rejected, failed); one left behind by a
 * crash right after that move, or by a request that died between claim and record, is freed
 * here when found, so no crash can block a transaction for good.
 */
export async function claimTransaction(deps: RefundsDeps, claim: RefundClaim): Promise<void> {
  for (let tries = 0; tries < 3; tries++) {
    if (await deps.claims.claim(claim)) return;
    const holder = await deps.claims.find(claim._id);
    // Freed between our insert and this read: try again.
    if (holder && !(await isDead(deps, holder, claim.claimedAt))) break;
    if (holder) await deps.claims.release(holder._id, holder.refundId);
  }
  throw new AppError("refund_exists", `transaction ${claim._id} already has a refund in progress or completed`, {
    param: "transaction_uuid",
  });
}

async function isDead(deps: RefundsDeps, holder: RefundClaim, now: string): Promise<boolean> {
  const refund = await deps.refunds.find(holder.refundId);
  if (refund) return releasesClaim(refund.status);
  // No record yet: a request still on its way, or one that died before writing it.
  return Date.parse(now) - Date.parse(holder.claimedAt) > ORPHAN_CLAIM_MS;
}
