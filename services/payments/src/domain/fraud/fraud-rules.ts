import type { FraudConfig } from "@payrail/runtime";

/**
 * The facts one debit is screened on, each read from an index or a small summary Payrail
 * keeps anyway (screen-debit.ts gathers them): none needs a scan, so screening costs a few
 * index reads per debit whatever the volume.
 */
export interface DebitFacts {
  amountCents: number;
  /** Debits from the same bank account (the transfer provider's fingerprint) in the last 24 h, at any merchant; null when the account has no fingerprint. */
  accountDebitsDay: number | null;
  /** Debits by the same consumer (one verified phone) in the last 24 h, at any merchant. */
  phoneDebitsDay: number;
  /** The merchant's settled debits of the last 90 days: how many, their mean and standard deviation (cents). */
  merchantAmounts: { count: number; meanCents: number; stddevCents: number };
  /** Minutes since the consumer linked the account; debits from it before this one (any merchant; null: no fingerprint). */
  accountLinkedMinutesAgo: number;
  accountPriorDebits: number | null;
  /** Different bank accounts the phone linked in the last 30 days (this one included). */
  phoneAccounts: number;
  /** ACH returns of debits from this bank account learnt in the last 90 days, at any merchant (null: no fingerprint). */
  accountReturns: number | null;
}

/** The thresholds of every rule: configuration (FRAUD_* settings), recorded with the rule set in force. */
export type FraudThresholds = Pick<
  FraudConfig,
  | "FRAUD_ACCOUNT_DEBITS_PER_DAY"
  | "FRAUD_PHONE_DEBITS_PER_DAY"
  | "FRAUD_AMOUNT_MIN_SAMPLES"
  | "FRAUD_AMOUNT_STDDEVS"
  | "FRAUD_AMOUNT_MIN_MULTIPLE"
  | "FRAUD_NEW_ACCOUNT_MINUTES"
  | "FRAUD_NEW_ACCOUNT_LIMIT"
  | "FRAUD_PHONE_ACCOUNTS_PER_30_DAYS"
  | "FRAUD_ACCOUNT_RETURNS_PER_90_DAYS"
>;

/** What a rule found when it fired: the facts it judged and the thresholds it judged them by. */
export interface RuleHit {
  rule: string;
  version: number;
  reason: string;
  facts: Record<string, number>;
  thresholds: Record<string, number>;
}

export interface FraudRule {
  /** Stable name; a change of logic gets a new `version` (and `since`), a change of thresholds is configuration. */
  id: string;
  version: number;
  /** When this version took effect (the evidence lists it). */
  since: string;
  description: string;
  /** The settings this rule reads. */
  settings: (keyof FraudThresholds)[];
  check(facts: DebitFacts, t: FraudThresholds): Omit<RuleHit, "rule" | "version"> | null;
}

const SINCE = "2026-11-28";

/** A rule that fires when one count reaches its setting: the shape of four of the six. */
function countRule(r: {
  id: string;
  description: string;
  setting: keyof FraudThresholds;
  count: (f: DebitFacts) => number | null;
  fact: string;
  threshold: string;
  reason: (n: number) => string;
}): FraudRule {
  return {
    id: r.id,
    version: 1,
    since: SINCE,
    description: r.description,
    settings: [r.setting],
    check: (f, t) => {
      const n = r.count(f);
      return n !== null && n >= t[r.setting] ? { reason: r.reason(n), facts: { [r.fact]: n }, thresholds: { [r.threshold]: t[r.setting] } } : null;
    },
  };
}

export const FRAUD_RULES: readonly FraudRule[] = [
  countRule({
    id: "account_velocity",
    description: "Debits from one bank account in 24 hours, across merchants",
    setting: "FRAUD_ACCOUNT_DEBITS_PER_DAY",
    count: (f) => f.accountDebitsDay,
    fact: "account_debits_24h",
    threshold: "max_debits_24h",
    reason: (n) => `the bank account was debited ${n} times in 24 hours`,
  }),
  countRule({
    id: "phone_velocity",
    description: "Debits by one consumer phone in 24 hours, across merchants",
    setting: "FRAUD_PHONE_DEBITS_PER_DAY",
    count: (f) => f.phoneDebitsDay,
    fact: "phone_debits_24h",
    threshold: "max_debits_24h",
    reason: (n) => `the consumer's phone made ${n} debits in 24 hours`,
  }),
  {
    id: "amount_outlier",
    version: 1,
    since: SINCE,
    description: "An amount far above the merchant's settled debits of the last 90 days",
    settings: ["FRAUD_AMOUNT_MIN_SAMPLES", "FRAUD_AMOUNT_STDDEVS", "FRAUD_AMOUNT_MIN_MULTIPLE"],
    check: (f, t) => {
      const { count, meanCents, stddevCents } = f.merchantAmounts;
      if (count < t.FRAUD_AMOUNT_MIN_SAMPLES) return null;
      const limit = Math.max(meanCents + t.FRAUD_AMOUNT_STDDEVS * stddevCents, meanCents * t.FRAUD_AMOUNT_MIN_MULTIPLE);
      if (f.amountCents <= limit) return null;
      return {
        reason: "the amount is far above the merchant's usual",
        facts: { amount_cents: f.amountCents, samples_90d: count, mean_cents: Math.round(meanCents), stddev_cents: Math.round(stddevCents) },
        thresholds: { min_samples: t.FRAUD_AMOUNT_MIN_SAMPLES, stddevs: t.FRAUD_AMOUNT_STDDEVS, min_multiple: t.FRAUD_AMOUNT_MIN_MULTIPLE },
      };
    },
  },
  {
    id: "new_account_amount",
    version: 1,
    since: SINCE,
    description: "A first debit above a limit from an account linked minutes ago",
    settings: ["FRAUD_NEW_ACCOUNT_MINUTES", "FRAUD_NEW_ACCOUNT_LIMIT"],
    check: (f, t) =>
      f.accountLinkedMinutesAgo < t.FRAUD_NEW_ACCOUNT_MINUTES && (f.accountPriorDebits ?? 0) === 0 && f.amountCents > t.FRAUD_NEW_ACCOUNT_LIMIT
        ? {
            reason: `a first debit above the limit from an account linked ${Math.floor(f.accountLinkedMinutesAgo)} minutes ago`,
            facts: { amount_cents: f.amountCents, linked_minutes_ago: Math.floor(f.accountLinkedMinutesAgo), prior_debits: f.accountPriorDebits ?? 0 },
            thresholds: { within_minutes: t.FRAUD_NEW_ACCOUNT_MINUTES, limit_cents: t.FRAUD_NEW_ACCOUNT_LIMIT },
          }
        : null,
  },
  countRule({
    id: "phone_accounts",
    description: "One phone linking many bank accounts in 30 days",
    setting: "FRAUD_PHONE_ACCOUNTS_PER_30_DAYS",
    count: (f) => f.phoneAccounts,
    fact: "phone_accounts_30d",
    threshold: "max_accounts_30d",
    reason: (n) => `the consumer's phone linked ${n} bank accounts in 30 days`,
  }),
  countRule({
    id: "account_returns",
    description: "ACH returns of the bank account in 90 days, across merchants",
    setting: "FRAUD_ACCOUNT_RETURNS_PER_90_DAYS",
    count: (f) => f.accountReturns,
    fact: "account_returns_90d",
    threshold: "max_returns_90d",
    reason: (n) => `the bank account had ${n} ACH returns in 90 days`,
  }),
];

/** Every rule that fires on `facts`, in the rules' order (empty: the debit goes ahead). */
export function evaluateRules(facts: DebitFacts, thresholds: FraudThresholds, rules: readonly FraudRule[] = FRAUD_RULES): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const hit = rule.check(facts, thresholds);
    if (hit) hits.push({ rule: rule.id, version: rule.version, ...hit });
  }
  return hits;
}

/** The rule set in force: each rule's version, since when, and the values of its settings. */
export function ruleSet(thresholds: FraudThresholds, rules: readonly FraudRule[] = FRAUD_RULES) {
  return rules.map((r) => ({
    id: r.id,
    version: r.version,
    version_since: r.since,
    description: r.description,
    thresholds: Object.fromEntries(r.settings.map((s) => [s, thresholds[s]])) as Record<string, number>,
  }));
}

/** Mean and standard deviation from a count, a sum and a sum of squares (population variance; never negative). */
export function amountSpread(count: number, sum: number, sumSquares: number): { count: number; meanCents: number; stddevCents: number } {
  if (count === 0) return { count: 0, meanCents: 0, stddevCents: 0 };
  const mean = sum / count;
  return { count, meanCents: mean, stddevCents: Math.sqrt(Math.max(0, sumSquares / count - mean * mean)) };
}
