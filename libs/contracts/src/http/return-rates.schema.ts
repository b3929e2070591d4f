import { z } from "zod";

/** One of NACHA's return-rate groups, over the window (docs/api-notes.md, Returns and blocked bank accounts). */
export const ReturnRateGroup = z.object({
  /** Returned debits of the group learnt within the window. */
  returns: z.number().int(),
  /** returns / debits (0 with no debit), as a fraction: 0.006 is 0.6 %. */
  rate: z.number(),
  /** NACHA's threshold for the group, as a fraction. */
  threshold: z.number(),
  /** The rate at which Payrail warns (80 % of the threshold): merchant.return_rate_warning. */
  warning_at: z.number(),
});

export const ReturnRatesResponse = z.object({
  window_days: z.number().int(),
  from: z.string().describe("Start of the window (ISO 8601 UTC)"),
  to: z.string().describe("End of the window: now (ISO 8601 UTC)"),
  /** Debits (transaction records: first charges and renewals) made within the window. */
  debits: z.number().int(),
  /** R05, R07, R10, R11, R29: NACHA threshold 0.5 %. */
  unauthorized: ReturnRateGroup,
  /** R02, R03, R04: NACHA threshold 3 %. */
  administrative: ReturnRateGroup,
  /** Every return: NACHA threshold 15 %. */
  overall: ReturnRateGroup,
});
export type ReturnRatesResponse = z.infer<typeof ReturnRatesResponse>;
