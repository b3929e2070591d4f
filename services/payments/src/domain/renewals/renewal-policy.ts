import { daysAfter } from "./billing-period.ts";

/** How failed renewals are retried and how a subscription ends (RENEWAL_RETRY_DAYS, RENEWAL_FINAL_STATUS). */
export interface RenewalPolicy {
  /** Days after each failure was learnt at which the next retry is made; its length is the number of retries (NACHA: at most 2). */
  retryDays: number[];
  /** What a subscription becomes once its last try failed. */
  finalStatus: "cancelled" | "unpaid";
}

/**
 * NACHA lets an originator re-present a returned debit only for insufficient or uncollected
 * funds (R01, R09), at most twice, within 180 days of the first presentment (Rules 2.12.4):
 * any other code ends the subscription's attempts at once, since a retry would only be another
 * return that counts against the merchant.
 */
export const RETRYABLE_RETURN_CODES: ReadonlySet<string> = new Set(["R01", "R09"]);
export const MAX_RETRIES = 2;
export const RETRY_WINDOW_DAYS = 180;

export type AfterFailure = { kind: "retry"; tryNumber: number; at: string } | { kind: "end"; status: RenewalPolicy["finalStatus"] };

/**
 * What follows the failure of try `tryNumber` (0 = the period's first presentment, first made at
 * `firstAt`), learnt at `learntAt`: the next retry, `retryDays[tryNumber]` days after the failure
 * was learnt (an R01 reported three days late is not retried the next morning), or the end of
 * the subscription when the code may not be retried, the retries ran out, or the retry would
 * fall outside NACHA's 180 days.
 */
export function afterFailure(policy: RenewalPolicy, failureCode: string | null, learntAt: string, tryNumber: number, firstAt: string): AfterFailure {
  const end = { kind: "end", status: policy.finalStatus } as const;
  const days = policy.retryDays[tryNumber];
  if (days === undefined || tryNumber >= MAX_RETRIES || failureCode === null || !RETRYABLE_RETURN_CODES.has(failureCode)) return end;
  const at = daysAfter(learntAt, days);
  return at <= daysAfter(firstAt, RETRY_WINDOW_DAYS) ? { kind: "retry", tryNumber: tryNumber + 1, at } : end;
}
