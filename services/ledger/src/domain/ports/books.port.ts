import type { BalanceTransactionType } from "@payrail/contracts";
import type { BalanceTransactionDoc } from "../balance-transaction.entity.ts";
import type { BalanceDoc } from "../balance.entity.ts";

/** What a list or an export asks for: merchant-scoped, newest first, after a cursor. */
export interface BalanceTransactionFilter {
  merchantId: string;
  from?: string | undefined;
  to?: string | undefined;
  type?: BalanceTransactionType | undefined;
  payoutId?: string | undefined;
  /** The signed amount in [minCents, maxCents], both inclusive. */
  minCents?: number | undefined;
  maxCents?: number | undefined;
}

/** The merchant's balance transactions. */
export interface BalanceTransactionsPort {
  /** Inserts once; false when the row is there already. */
  insert(doc: BalanceTransactionDoc): Promise<boolean>;
  find(id: string): Promise<BalanceTransactionDoc | null>;
  /** Sets `counted`; a row already counted stays as it is. */
  markCounted(id: string): Promise<void>;
  list(filter: BalanceTransactionFilter, limit: number, after?: Pick<BalanceTransactionDoc, "_id" | "createdAt">): Promise<BalanceTransactionDoc[]>;
  /** The merchant's rows not yet available at `now`: a window of days, never the history. */
  pendingAt(merchantId: string, now: string): Promise<BalanceTransactionDoc[]>;
  /**
   * A page of the merchant's rows in no payout yet that are available at `cutoff`, newest first,
   * after `after`: what a payout gathers.
   */
  unpaid(merchantId: string, cutoff: string, limit: number, after?: Pick<BalanceTransactionDoc, "_id" | "createdAt">): Promise<BalanceTransactionDoc[]>;
  /**
   * Puts a row in payout `payoutId` under fencing token `fence`, unless it is in one already or a
   * run with a larger token moved it; whether it is in that one now.
   */
  assign(id: string, payoutId: string, fence: number): Promise<boolean>;
  /**
   * Marks a row of payout `payoutId` with `fence` (one a run before this one put there), so no
   * run with a smaller token may take it out again; false when it is no longer in that payout.
   */
  refence(id: string, payoutId: string, fence: number): Promise<boolean>;
  /** Takes a row out of payout `payoutId` again (a payout that came to nothing), under `fence`. */
  unassign(id: string, payoutId: string, fence: number): Promise<void>;
}

/** The merchant's running totals. */
export interface BalancesPort {
  find(merchantId: string): Promise<BalanceDoc | null>;
  /** Creates the merchant's zero total unless there is one. */
  open(merchantId: string, currency: string): Promise<void>;
  /** Adds `row`'s cents when the total is still at `seq`; false when another write came first. */
  count(merchantId: string, seq: number, row: Pick<BalanceTransactionDoc, "_id" | "amountCents">): Promise<boolean>;
  /** A page of the merchants that have a total, by id after `afterId`: the payout pass walks them. */
  merchantsAfter(afterId: string, limit: number): Promise<string[]>;
}
