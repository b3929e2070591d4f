import { centsToDecimal, type CheckoutSummary } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";

/**
 * The version of the authorization's wording. A change of wording is a new version (date and a
 * counter); acceptances name the version they saw, and an older one is refused, so every stored
 * mandate can be matched to the exact words (docs/decisions/0033-mandates.md).
 */
export const MANDATE_TEXT_VERSION = "2026-11-25.1";

const PERIODS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

export interface MandateTextFacts {
  merchantName: string;
  checkout: Pick<CheckoutSummary, "amount_cents" | "currency" | "is_subscription" | "plan_type">;
  /** The day of the first debit: the day the consumer accepts (the merchant debits at once). */
  firstDebitOn: Date;
}

/** The words shown before the debit, for one checkout, and their SHA-256 (what a mandate records). */
export function renderMandateText(facts: MandateTextFacts): { text_version: string; text: string; sha256: string } {
  const { merchantName, checkout } = facts;
  const amount = formatAmount(checkout.amount_cents, checkout.currency);
  const date = facts.firstDebitOn.toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
  const period = checkout.is_subscription ? (PERIODS[checkout.plan_type ?? ""] ?? checkout.plan_type ?? "period") : null;
  const what = period
    ? `${amount} every ${period}, starting on ${date}, until you cancel`
    : `a one-time payment of ${amount} on ${date}`;
  const text =
    `By confirming this payment, you authorize ${merchantName} to debit the bank account you choose for ${what}, ` +
    `as an electronic (ACH) debit. You can revoke this authorization at any time in your account at /account on this site ` +
    `(sign in with your phone number), or by contacting ${merchantName}; debits already made are not affected.`;
  return { text_version: MANDATE_TEXT_VERSION, text, sha256: sha256Hex(text) };
}

function formatAmount(cents: number, currency: string): string {
  const decimal = centsToDecimal(cents);
  return currency === "USD" ? `$${Number(decimal).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` : `${decimal} ${currency}`;
}
