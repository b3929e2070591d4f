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

/** The merchant's debits over the last 7 and 30 days: counts and settled volume (the dashboard's overview). */
export const getPaymentStatsOp = defineOperation(
  "payments.getPaymentStats",
  z.object({}),
  z.object({ windows: z.array(PaymentStatsWindow), currency: z.string() }),
);
