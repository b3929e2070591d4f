import type { TransactionPurpose } from "@payrail/contracts";

/** A consumer's online purchase of goods (NACHA, from March 20, 2026). */
export const PURCHASE = "PURCHASE";
/** A re-presented debit after an R01/R09 return (NACHA Rules 2.12.4): the only retries Payrail makes. */
export const RETRY_PAYMENT = "RETRY PYMT";
/** A refund's payout to the consumer. */
export const REFUND = "REFUND";
/** A merchant's payout of its available balance to its own bank. */
export const PAYOUT = "PAYOUT";

/** What payments knows of the merchant when a checkout's first debit is fixed. */
export interface Describer {
  name: string;
  statementDescriptor: string | null;
  defaultTransactionPurpose: TransactionPurpose;
}

/**
 * The company entry description of a checkout's debits (docs/decisions/0008-entry-descriptions.md):
 * `PURCHASE` for goods, else the merchant's statement descriptor, or one derived from its name.
 * Fixed when the first debit starts, so every renewal of a subscription is described alike.
 */
export function checkoutEntryDescription(purpose: TransactionPurpose | null | undefined, merchant: Describer): string {
  if ((purpose ?? merchant.defaultTransactionPurpose) === "goods") return PURCHASE;
  return merchant.statementDescriptor ?? descriptorFromName(merchant.name);
}

/** One charge's description: a retry (try 1 or 2 of a period) is `RETRY PYMT`, whatever the checkout's. */
export function chargeEntryDescription(checkoutDescription: string | undefined, renewalTry: number | undefined): string {
  if (renewalTry !== undefined && renewalTry > 0) return RETRY_PAYMENT;
  // Attempts started before descriptions were kept: their checkouts had no purpose, so goods.
  return checkoutDescription ?? PURCHASE;
}

/** The merchant's name as a descriptor: upper case, the characters NACHA's ODFIs accept, 10 at most. */
export function descriptorFromName(name: string): string {
  const cleaned = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "") // É is E
    .toUpperCase()
    .replace(/[^A-Z0-9&*,\-./ ]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, 10)
    .trim();
  return /[A-Z]/.test(cleaned) ? cleaned : "PAYMENT";
}
