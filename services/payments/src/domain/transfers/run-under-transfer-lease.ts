import { AppError } from "@payrail/contracts";
import { withLeaseHeartbeat } from "@payrail/runtime";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { TransferAttemptRecord } from "./transfer-attempt.entity.ts";
import type { TransferDeps } from "./transfer.deps.ts";
import { runTransferSteps } from "./transfer-steps.ts";

/**
 * Runs the transfer steps of an attempt this caller just leased (until `until`), with the lease
 * renewed while they work: a live caller keeps it however slow its provider is, and a killed
 * one's runs out within one lease. Gives the lease back at the end; a crash never gets there,
 * and the lease then runs out for the next caller (a merchant's call, or the reconciler).
 */
export async function runUnderTransferLease(
  deps: TransferDeps,
  meta: RequestMeta,
  leased: TransferAttemptRecord,
  leaseId: string,
  until: Date,
  /** Runs first under the lease (a check that may refuse the work); the lease is given back either way. */
  before?: () => Promise<void>,
): Promise<TransferAttemptRecord> {
  const checkoutId = leased._id;
  let done: TransferAttemptRecord | undefined;
  try {
    await before?.();
    const heartbeat = {
      leaseMs: deps.leaseMs,
      until,
      now: deps.now,
      renew: (to: Date) => deps.attempts.renewLease(checkoutId, leaseId, to.toISOString()),
      release: () => deps.attempts.releaseLease(checkoutId, leaseId),
      lostError: () => transferInProgress(checkoutId),
      onLost: (reason: string) => deps.logger.warn({ requestId: meta.requestId, checkoutId, reason }, "transfer lease lost; this call stops"),
      onRenewError: (err: unknown) => deps.logger.warn({ err, checkoutId }, "could not renew the transfer lease; trying again"),
    };
    done = await withLeaseHeartbeat(heartbeat, (lease) => runTransferSteps(deps, meta, leased, leaseId, lease));
    return done;
  } finally {
    // The steps' last write gave a completed attempt's lease back already.
    if (!done?.completed) await deps.attempts.releaseLease(checkoutId, leaseId).catch((err: unknown) => {
      deps.logger.warn({ err, checkoutId }, "could not release the transfer lease; it will expire");
    });
  }
}

/** Another call (or the reconciler) holds the checkout's transfer: the caller retries shortly. */
export function transferInProgress(checkoutId: string): AppError {
  return new AppError("transfer_in_progress", `a transfer for checkout ${checkoutId} is being started; retry shortly`, { retryAfter: 1 });
}
