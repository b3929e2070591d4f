import { amountInWords, dayInWords, type CheckoutSummary } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";

/**
 * The versions of the authorization's wording. A change of wording is a new version (date and a
 * counter); acceptances name the version they saw, and an older one is refused, so every stored
 * mandate can be matched to the exact words (docs/decisions/0033-mandates.md). Every version
 * stays renderable: a mandate's copy is rendered with the version it was accepted under, so its
 * hash still matches after the wording moved on.
 */
export const MANDATE_TEXT_VERSION = "2026-11-25.1";
/**
 * A subscription's change of bank account has its own words (docs/decisions/0043-portal-micro-deposits.md):
 * the payment's "By confirming this payment" is wrong there. Re-links accepted before it was
 * written are `2026-11-25.1`, the payment's words, and keep rendering them.
 */
export const RELINK_MANDATE_TEXT_VERSION = "2026-11-28.1";

const PERIODS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

export interface MandateTextFacts {
  merchantName: string;
  checkout: Pick<CheckoutSummary, "amount_cents" | "currency" | "is_subscription" | "plan_type">;
  /** The day of the first debit: the day the consumer accepts (the merchant debits at once), or a re-link's next charge. */
  firstDebitOn: Date;
}

/** How to revoke: the same for every wording (Reg E and NACHA's WEB rule have it said). */
const revocation = (merchantName: string) =>
  `You can revoke this authorization at any time in your account at /account on this site ` +
  `(sign in with your phone number), or by contacting ${merchantName}; debits already made are not affected.`;

/** 2026-11-25.1: a checkout's payment (one-off or the first charge of a subscription). */
function paymentWords(facts: MandateTextFacts): string {
  const { amount, date, period } = wordsOf(facts);
  const what = period ? `${amount} every ${period}, starting on ${date}, until you cancel` : `a one-time payment of ${amount} on ${date}`;
  return `By confirming this payment, you authorize ${facts.merchantName} to debit the bank account you choose for ${what}, as an electronic (ACH) debit. ${revocation(facts.merchantName)}`;
}

/**
 * 2026-11-28.1: a subscription's change of bank account. The first charge it names is the next
 * one due; an account the bank must first confirm by micro-deposits is drawn on from the first
 * charge after the consumer entered them (the current account pays until then).
 */
function accountChangeWords(facts: MandateTextFacts): string {
  const { amount, date, period } = wordsOf(facts);
  return (
    `By confirming this change of bank account, you authorize ${facts.merchantName} to debit the bank account you choose, ` +
    `instead of the account you pay from now, for ${amount}${period ? ` every ${period}` : ""}, starting with the charge due on ${date} ` +
    `(or, when your bank must first confirm the account with two small deposits, the first charge after you confirm them), ` +
    `until you cancel, as an electronic (ACH) debit. ${revocation(facts.merchantName)}`
  );
}

const WORDINGS: Readonly<Record<string, (facts: MandateTextFacts) => string>> = {
  [MANDATE_TEXT_VERSION]: paymentWords,
  [RELINK_MANDATE_TEXT_VERSION]: accountChangeWords,
};

/**
 * The words of `version` (default: the payment's current one) for one checkout, and their
 * SHA-256 (what a mandate records); null for a version Payrail never had.
 */
export function renderMandateText(facts: MandateTextFacts, version?: undefined): { text_version: string; text: string; sha256: string };
export function renderMandateText(facts: MandateTextFacts, version: string): { text_version: string; text: string; sha256: string } | null;
export function renderMandateText(facts: MandateTextFacts, version: string = MANDATE_TEXT_VERSION): { text_version: string; text: string; sha256: string } | null {
  const words = WORDINGS[version];
  if (!words) return null;
  const text = words(facts);
  return { text_version: version, text, sha256: sha256Hex(text) };
}

function wordsOf(facts: MandateTextFacts): { amount: string; date: string; period: string | null } {
  const { checkout } = facts;
  return {
    amount: amountInWords(checkout.amount_cents, checkout.currency),
    date: dayInWords(facts.firstDebitOn),
    period: checkout.is_subscription ? (PERIODS[checkout.plan_type ?? ""] ?? checkout.plan_type ?? "period") : null,
  };
}


