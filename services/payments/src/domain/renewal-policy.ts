import { daysAfter } from "./billing-period.ts";

/** How failed renewals are retried and how a subscription ends (RENEWAL_RETRY_DAYS, RENEWAL_FINAL_STATUS). */
export interface RenewalPolicy {
  /** Days after the period's due date of each retry, ascending; its length is the number of retries. */
  retryDays: number[];
  /** What a subscription becomes once its last try failed. */
  finalStatus: "cancelled" | "unpaid";
}

/**
 * ACH returns that no retry can fix (closed, missing or invalid account, frozen, revoked or
 * unauthorised debits): retrying them would only produce more returns, which NACHA counts
 * against the originator.
 */
export const FINAL_RETURN_CODES: ReadonlySet<string> = new Set(["R02", "R03", "R04", "R05", "R07", "R08", "R10", "R16", "R20", "R29"]);

export type AfterFailure = { kind: "retry"; tryNumber: number; at: string } | { kind: "end"; status: RenewalPolicy["finalStatus"] };

/**
 * What follows the failure of try `tryNumber` (0 = the period's first charge) of the period due
 * at `dueAt`: its next retry, or the end of the subscription when the code is final or the
 * retries ran out.
 */
export function afterFailure(policy: RenewalPolicy, failureCode: string | null, dueAt: string, tryNumber: number): AfterFailure {
  const days = policy.retryDays[tryNumber];
  if (days === undefined || (failureCode !== null && FINAL_RETURN_CODES.has(failureCode))) return { kind: "end", status: policy.finalStatus };
  return { kind: "retry", tryNumber: tryNumber + 1, at: daysAfter(dueAt, days) };
}
