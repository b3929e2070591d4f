import { z } from "zod";

const emptyAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const count = (fallback: number) => z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(fallback));
const positive = (fallback: number) => z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(1_000_000).default(fallback));

/**
 * Fraud monitoring (NACHA's risk-based screening of WEB debits, docs/decisions/0010-fraud-monitoring.md):
 * each rule's thresholds, and how long a held debit waits for the merchant. Part of ConfigSchema;
 * the rules' versions live in code, these values are recorded with them as the rule set in force.
 */
export const FRAUD_CONFIG = {
  /** account_velocity: a bank account (the provider's fingerprint) with this many debits in 24 h, across merchants, has the next held. */
  FRAUD_ACCOUNT_DEBITS_PER_DAY: count(5),
  /** phone_velocity: a consumer (one verified phone) with this many debits in 24 h, across merchants, has the next held. */
  FRAUD_PHONE_DEBITS_PER_DAY: count(10),
  /** amount_outlier: the merchant's settled debits of the last 90 days needed before amounts are judged against them. */
  FRAUD_AMOUNT_MIN_SAMPLES: count(30),
  /** amount_outlier: held above the 90-day mean plus this many standard deviations … */
  FRAUD_AMOUNT_STDDEVS: positive(4),
  /** … and at least this multiple of the mean. */
  FRAUD_AMOUNT_MIN_MULTIPLE: positive(3),
  /** new_account_amount: an account linked less than this many minutes ago, never debited before … */
  FRAUD_NEW_ACCOUNT_MINUTES: count(60),
  /** … has a first debit above this amount (dollars, two decimals at most) held. */
  FRAUD_NEW_ACCOUNT_LIMIT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(0|[1-9]\d*)(\.\d{1,2})?$/, "an amount in dollars, like 2500 or 2500.00")
      .default("2500.00")
      .transform((v) => Math.round(Number(v) * 100)),
  ),
  /** phone_accounts: a phone that linked this many different bank accounts in 30 days has its debits held. */
  FRAUD_PHONE_ACCOUNTS_PER_30_DAYS: count(4),
  /**
   * account_returns: a bank account with this many ACH returns in 90 days (at any merchant) has
   * its debits held. Default 3: one more than the returns of a debit and its first retry, so
   * NACHA's two re-presentments of an R01/R09 return are not held on their own.
   */
  FRAUD_ACCOUNT_RETURNS_PER_90_DAYS: count(3),
  /** A held debit the merchant neither approves nor cancels within this many hours is cancelled (fractions allowed). */
  REVIEW_EXPIRES_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(24 * 30).default(72)),
};

export type FraudConfig = z.infer<z.ZodObject<typeof FRAUD_CONFIG>>;
