import type { PaymentsDeps } from "../rpc/deps.ts";
import { sweepReviews } from "../../domain/fraud/sweep-reviews.use-case.ts";
import { every } from "@payrail/runtime";

/** How long one sweep may hold its job lease before another replica may run one. */
const SWEEP_LEASE_MS = 5 * 60_000;

/** The review sweep's clock on one payments instance (REVIEW_SWEEP_EVERY); its job lease lets one replica sweep at a time. */
export function startReviewSweepScheduler(deps: PaymentsDeps, everyMs: number): { stop(): Promise<void> } {
  return every(everyMs, () => sweepReviews(deps, SWEEP_LEASE_MS), deps.logger, "review sweep");
}
