import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

export const PaymentStatsWindow = z.object({
  /** The window: this many UTC days, today included. */
  days: z.number().int(),
  /** Debits made in the window (first charges and renewals). */
  debits: z.number().int(),
  /** Of those, the ones that settled (`completed`; one returned since no longer counts). Exact. */
  settled: z.number().int(),
  /** What the settled ones moved, in major units as the API shows amounts ("107.50"). Exact. */
  settled_volume: z.string(),
});

/** One UTC day of the merchant's debits (by the day each debit was made): what settled, and what of it the bank returned since. */
export const PaymentStatsDay = z.object({
  day: z.string(),
  /** Debits of the day that settled and stayed settled, and what they moved ("107.50"). */
  settled: z.number().int(),
  settled_volume: z.string(),
  /** Debits of the day the bank returned, and what they had moved. */
  returned: z.number().int(),
  returned_volume: z.string(),
});

/**
 * The merchant's debits over the last 7 and 30 days: counts and settled volume, and each of the
 * 30 days (oldest first, days without debits as zeros) for the overview's chart.
 */
export const getPaymentStatsOp = defineOperation(
  "payments.getPaymentStats",
  z.object({}),
  z.object({ windows: z.array(PaymentStatsWindow), days: z.array(PaymentStatsDay), currency: z.string() }),
);
