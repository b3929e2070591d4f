import { z } from "zod";
import { defineEvent } from "./domain-event.ts";

/**
 * A merchant's return rate of one group reached 80 % of NACHA's threshold over the last 60
 * days (docs/api-notes.md, Returns and blocked bank accounts): `{group, rate, threshold, returns, debits, window_days}`. Once per group
 * until the rate falls back below the warning level. Published by payments.
 */
export const ReturnRateWarningSnapshot = z.looseObject({
  group: z.enum(["unauthorized", "administrative", "overall"]),
  rate: z.number(),
  threshold: z.number(),
});
export const MerchantReturnRateWarningEvent = defineEvent("merchant.return_rate_warning", "merchant", ReturnRateWarningSnapshot);
export type MerchantReturnRateWarningEvent = z.infer<typeof MerchantReturnRateWarningEvent>;
