import { loadConfig } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { amountSpread, evaluateRules, FRAUD_RULES, ruleSet, type DebitFacts } from "./fraud-rules.ts";

const t = loadConfig({});

/** An ordinary debit: nothing any rule looks at is anywhere near its threshold. */
const ordinary: DebitFacts = {
  amountCents: 10_750,
  accountDebitsDay: 0,
  phoneDebitsDay: 0,
  merchantAmounts: { count: 100, meanCents: 10_000, stddevCents: 2_000 },
  accountLinkedMinutesAgo: 1,
  accountPriorDebits: 0,
  phoneAccounts: 1,
  accountReturns: 0,
};
const fired = (facts: Partial<DebitFacts>) => evaluateRules({ ...ordinary, ...facts }, t).map((h) => h.rule);

describe("fraud rules", () => {
  it("lets an ordinary debit through: no rule fires", () => {
    expect(fired({})).toEqual([]);
  });

  it("holds the debit of an account debited FRAUD_ACCOUNT_DEBITS_PER_DAY times in 24 h, not one fewer", () => {
    expect(fired({ accountDebitsDay: t.FRAUD_ACCOUNT_DEBITS_PER_DAY })).toEqual(["account_velocity"]);
    expect(fired({ accountDebitsDay: t.FRAUD_ACCOUNT_DEBITS_PER_DAY - 1 })).toEqual([]);
    expect(fired({ accountDebitsDay: null })).toEqual([]);
  });

  it("holds the debit of a phone with FRAUD_PHONE_DEBITS_PER_DAY debits in 24 h, not one fewer", () => {
    expect(fired({ phoneDebitsDay: t.FRAUD_PHONE_DEBITS_PER_DAY })).toEqual(["phone_velocity"]);
    expect(fired({ phoneDebitsDay: t.FRAUD_PHONE_DEBITS_PER_DAY - 1 })).toEqual([]);
  });

  it("holds an amount above both the mean plus FRAUD_AMOUNT_STDDEVS deviations and FRAUD_AMOUNT_MIN_MULTIPLE means, not at the limit", () => {
    // mean 100.00, sd 20.00: 4 sd above is 180.00, 3 means is 300.00: the limit is the larger.
    expect(fired({ amountCents: 30_001 })).toEqual(["amount_outlier"]);
    expect(fired({ amountCents: 30_000 })).toEqual([]);
    // A wide spread: the deviations decide (100 + 4 × 80 = 420.00).
    const wide = { count: 100, meanCents: 10_000, stddevCents: 8_000 };
    expect(fired({ merchantAmounts: wide, amountCents: 42_001 })).toEqual(["amount_outlier"]);
    expect(fired({ merchantAmounts: wide, amountCents: 42_000 })).toEqual([]);
  });

  it("judges no amount before the merchant has FRAUD_AMOUNT_MIN_SAMPLES settled debits", () => {
    const few = { count: t.FRAUD_AMOUNT_MIN_SAMPLES - 1, meanCents: 10_000, stddevCents: 0 };
    expect(fired({ merchantAmounts: few, amountCents: 1_000_000, accountPriorDebits: 3 })).toEqual([]);
    expect(fired({ merchantAmounts: { ...few, count: t.FRAUD_AMOUNT_MIN_SAMPLES }, amountCents: 1_000_000, accountPriorDebits: 3 })).toEqual(["amount_outlier"]);
  });

  it("holds a first debit above FRAUD_NEW_ACCOUNT_LIMIT from an account linked within FRAUD_NEW_ACCOUNT_MINUTES, not at the limit, later, or after a debit", () => {
    const limit = t.FRAUD_NEW_ACCOUNT_LIMIT;
    const big = { merchantAmounts: { count: 0, meanCents: 0, stddevCents: 0 } };
    expect(fired({ ...big, amountCents: limit + 1 })).toEqual(["new_account_amount"]);
    expect(fired({ ...big, amountCents: limit })).toEqual([]);
    expect(fired({ ...big, amountCents: limit + 1, accountLinkedMinutesAgo: t.FRAUD_NEW_ACCOUNT_MINUTES })).toEqual([]);
    expect(fired({ ...big, amountCents: limit + 1, accountPriorDebits: 1 })).toEqual([]);
  });

  it("holds the debits of a phone that linked FRAUD_PHONE_ACCOUNTS_PER_30_DAYS accounts, not one fewer", () => {
    expect(fired({ phoneAccounts: t.FRAUD_PHONE_ACCOUNTS_PER_30_DAYS })).toEqual(["phone_accounts"]);
    expect(fired({ phoneAccounts: t.FRAUD_PHONE_ACCOUNTS_PER_30_DAYS - 1 })).toEqual([]);
  });

  it("holds the debits of an account with FRAUD_ACCOUNT_RETURNS_PER_90_DAYS returns, not one fewer", () => {
    expect(fired({ accountReturns: t.FRAUD_ACCOUNT_RETURNS_PER_90_DAYS })).toEqual(["account_returns"]);
    expect(fired({ accountReturns: t.FRAUD_ACCOUNT_RETURNS_PER_90_DAYS - 1 })).toEqual([]);
  });

  it("reports every rule that fires with the facts and thresholds it judged", () => {
    const hits = evaluateRules({ ...ordinary, accountDebitsDay: 9, accountReturns: 3 }, t);
    expect(hits).toEqual([
      expect.objectContaining({ rule: "account_velocity", version: 1, facts: { account_debits_24h: 9 }, thresholds: { max_debits_24h: t.FRAUD_ACCOUNT_DEBITS_PER_DAY } }),
      expect.objectContaining({ rule: "account_returns", version: 1, facts: { account_returns_90d: 3 } }),
    ]);
  });

  it("follows configured thresholds", () => {
    const strict = loadConfig({ FRAUD_ACCOUNT_DEBITS_PER_DAY: "1", FRAUD_NEW_ACCOUNT_LIMIT: "50.00" });
    expect(strict.FRAUD_NEW_ACCOUNT_LIMIT).toBe(5_000);
    expect(evaluateRules({ ...ordinary, accountDebitsDay: 1 }, strict).map((h) => h.rule)).toEqual(["account_velocity", "new_account_amount"]);
    expect(() => loadConfig({ FRAUD_NEW_ACCOUNT_LIMIT: "25.001" })).toThrow(/FRAUD_NEW_ACCOUNT_LIMIT/);
  });

  it("lists every rule with a unique id, its version and its settings' values", () => {
    const set = ruleSet(t);
    expect(new Set(set.map((r) => r.id)).size).toBe(FRAUD_RULES.length);
    expect(set.find((r) => r.id === "amount_outlier")).toMatchObject({ version: 1, thresholds: { FRAUD_AMOUNT_MIN_SAMPLES: 30, FRAUD_AMOUNT_STDDEVS: 4, FRAUD_AMOUNT_MIN_MULTIPLE: 3 } });
  });

  it("computes the mean and standard deviation from running sums", () => {
    // 10, 20, 30: mean 20, population sd sqrt(200/3).
    expect(amountSpread(3, 60, 1_400)).toEqual({ count: 3, meanCents: 20, stddevCents: Math.sqrt(200 / 3) });
    expect(amountSpread(0, 0, 0)).toEqual({ count: 0, meanCents: 0, stddevCents: 0 });
  });
});
