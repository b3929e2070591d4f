import type { RefundStatus } from "@payrail/contracts";
import type { RefundDoc } from "./refund.entity.ts";

/*
 * The refund state machine (docs/api-notes.md, Refunds), pure:
 *   pending → approved | rejected;  approved → processing → completed | failed;
 *   failed → processing (initiated again: a new payout attempt).
 * Each move is made by one conditional write elsewhere; these functions only say which move a
 * request asks for, and what a request that finds the move already made should answer.
 */

export type Decision = "approved" | "rejected";

/**
 * A merchant's decision on a refund in `status`: `move` (only from pending), `same` (this
 * decision was made already: answer as before), or `conflict` (the other one was).
 */
export function decisionOutcome(status: RefundStatus, decision: Decision): "move" | "same" | "conflict" {
  if (status === "pending") return "move";
  const made: Decision = status === "rejected" ? "rejected" : "approved";
  return made === decision ? "same" : "conflict";
}

/**
 * Initiate Refund Transfer on a refund: `start` it (approved), `retry` it (failed: a new payout
 * attempt), `resume` it (processing, but the provider's transfer id was never recorded: a call
 * died in between), answer it as it is (`done`: the transfer started), or `conflict` (pending,
 * rejected).
 */
export function initiateOutcome(refund: Pick<RefundDoc, "status" | "refundTransactionId">): "start" | "retry" | "resume" | "done" | "conflict" {
  switch (refund.status) {
    case "approved":
      return "start";
    case "failed":
      return "retry";
    case "processing":
      return refund.refundTransactionId ? "done" : "resume";
    case "completed":
      return "done";
    default:
      return "conflict";
  }
}

/** Statuses in which the refund holds nothing of its transaction: its amount may be refunded again. */
export function releasesHold(status: RefundStatus): boolean {
  return status === "rejected" || status === "failed";
}

export const DECISION_MESSAGES: Record<Decision, string> = {
  approved: "Refund request approved by merchant",
  rejected: "Refund request rejected by merchant",
};
