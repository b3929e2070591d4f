import type { AmountStatsPort } from "./ports/amount-stats.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import { amountSpread, evaluateRules, type DebitFacts, type FraudThresholds, type RuleHit } from "./fraud-rules.ts";

const DAY_MS = 86_400_000;
/** Payment methods of one phone read at most: past the phone_accounts threshold the count no longer matters. */
const PHONE_METHODS_READ = 100;

/** What screening reads: index counts over records payments keeps anyway, and the weekly amount sums. */
export interface ScreeningDeps {
  transactions: TransactionsPort;
  paymentMethods: PaymentMethodsPort;
  amountStats: AmountStatsPort;
  fraud: FraudThresholds;
  now(): Date;
}

export interface DebitToScreen {
  merchantId: string;
  userId: string;
  userPhone: string;
  /** The provider's fingerprint of the bank account; null when it gave none. */
  fingerprint: string | null;
  amountCents: number;
  /** When the consumer linked the account. */
  linkedAt: string;
}

/** The facts of one debit (a handful of index reads, side by side) and the rules that fire on them. */
export async function screenDebit(deps: ScreeningDeps, d: DebitToScreen): Promise<{ facts: DebitFacts; hits: RuleHit[] }> {
  const now = deps.now();
  const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
  const nowIso = now.toISOString();
  const fp = d.fingerprint;
  const [accountDebitsDay, accountPriorDebits, accountReturns, phoneDebitsDay, phoneAccounts, sums] = await Promise.all([
    // Bounded above by now: a test clock's renewals dated ahead are not "the last 24 h".
    fp ? deps.transactions.countFromAccount(fp, at(DAY_MS), nowIso) : null,
    fp ? deps.transactions.countFromAccount(fp, "1970-01-01T00:00:00.000Z") : null,
    fp ? deps.transactions.countAccountReturns(fp, at(90 * DAY_MS)) : null,
    deps.transactions.countForUser(d.userId, at(DAY_MS), nowIso),
    deps.paymentMethods.accountsLinkedByPhone(d.userPhone, at(30 * DAY_MS), PHONE_METHODS_READ),
    deps.amountStats.since(d.merchantId, at(90 * DAY_MS)),
  ]);
  const facts: DebitFacts = {
    amountCents: d.amountCents,
    accountDebitsDay,
    phoneDebitsDay,
    merchantAmounts: amountSpread(sums.count, sums.sum, sums.sumSquares),
    accountLinkedMinutesAgo: Math.max(0, (now.getTime() - Date.parse(d.linkedAt)) / 60_000),
    accountPriorDebits,
    phoneAccounts,
    accountReturns,
  };
  return { facts, hits: evaluateRules(facts, deps.fraud) };
}
