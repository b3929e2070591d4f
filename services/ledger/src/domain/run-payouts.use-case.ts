import { AppError, type MerchantPrincipal, type RunPayoutsResponse } from "@payrail/contracts";
import type { AuditMeta } from "@payrail/runtime";
import type { PayoutDeps } from "./ledger.deps.ts";
import { payOut } from "./pay-out.use-case.ts";
import { payoutIdFor, toPayout, type PayoutDoc } from "./payout.entity.ts";

/** Merchants read per page of a pass. */
const PAGE = 200;
/** How often a call that found a merchant's payout lease held looks again, and for how long at most. */
const WAIT_MS = 50;
const WAIT_TRIES = 200;

/**
 * One merchant's payout under its lease (`payout:<merchant>`): of N replicas or concurrent calls
 * one works on it at a time; the others wait until its payout's amount is fixed and answer that
 * payout (the day's payout id is the same for all). A holder that died leaves the lease to run out;
 * one that only stalled past it is fenced off by the lease's token (see payOut).
 */
export async function payOutUnderLease(deps: PayoutDeps, merchantId: string, requestId: string, wait: boolean, audit?: AuditMeta): Promise<PayoutDoc | null | "busy"> {
  const job = `payout:${merchantId}`;
  for (let i = 0; ; i++) {
    const now = deps.now();
    const lease = await deps.jobs.takeFenced(job, now.toISOString(), new Date(now.getTime() + deps.leaseMs).toISOString());
    if (lease) {
      try {
        return await payOut(deps, merchantId, requestId, lease.fence, audit);
      } finally {
        await deps.jobs.release(job, lease.leaseId);
      }
    }
    if (!wait) return "busy";
    // The holder fixed today's payout already: that is the answer, whatever it still has to do.
    const today = await deps.payouts.find(payoutIdFor(merchantId, now.toISOString().slice(0, 10)));
    if (today && today.stage !== "open") return today;
    if (i >= WAIT_TRIES) throw new AppError("payout_in_progress", "another payout run of this merchant is still working; try again");
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

/**
 * Sandbox `POST /api/sandbox/payouts/run`: the payout pass for the calling merchant, now. The
 * payout it makes records the caller (`payout.created`); a run that finds nothing to pay, or
 * today's payout made already, records nothing.
 */
export async function runPayouts(deps: PayoutDeps, meta: AuditMeta & { principal: MerchantPrincipal }, requestId: string): Promise<RunPayoutsResponse> {
  const payout = await payOutUnderLease(deps, meta.principal.merchantId, requestId, true, meta);
  return { payout: payout && payout !== "busy" ? toPayout(payout) : null };
}

/**
 * The scheduled pass (PAYOUT_SCHEDULE): every merchant with a balance, one after the other, under
 * the pass's lease so one replica runs it at a time; a merchant whose payout lease is held (a
 * sandbox run right then) is left to that holder. One merchant's failure is logged and the pass
 * goes on; the next pass carries on with that day's payout where it stopped.
 */
export async function payoutPass(deps: PayoutDeps, stopping: () => boolean = () => false): Promise<{ busy: boolean; merchants: number; payouts: number; errors: number }> {
  const started = deps.now();
  const lease = await deps.jobs.take("payout-pass", started.toISOString(), new Date(started.getTime() + deps.leaseMs).toISOString());
  if (!lease) return { busy: true, merchants: 0, payouts: 0, errors: 0 };
  const report = { busy: false, merchants: 0, payouts: 0, errors: 0 };
  const requestId = `payouts-${started.toISOString()}`;
  try {
    let after = "";
    for (;;) {
      const page = await deps.balances.merchantsAfter(after, PAGE);
      for (const merchantId of page) {
        if (stopping()) return report;
        report.merchants++;
        try {
          const payout = await payOutUnderLease(deps, merchantId, requestId, false);
          if (payout && payout !== "busy") report.payouts++;
        } catch (err) {
          report.errors++;
          deps.logger.warn({ err, requestId, merchantId }, "payout failed; the next pass carries it on");
        }
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!;
    }
  } finally {
    await deps.jobs.release("payout-pass", lease);
  }
  deps.logger.info({ requestId, ...report }, "payout pass done");
  return report;
}
