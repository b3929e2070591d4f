import { centsToDecimal } from "./http/money.schema.ts";

// Made once: `toLocaleString` with options builds a new formatter on every call, which was 2% of
// a whole payment flow's CPU (a first charge's mandate words and every notice format amounts and
// dates several times).
const DOLLARS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const LONG_DAY = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });

/** An amount as the consumer reads it in the authorization's words and the notices: `$1,234.50`, or `12.50 EUR`. */
export function amountInWords(cents: number, currency: string): string {
  const decimal = centsToDecimal(cents);
  return currency === "USD" ? `$${DOLLARS.format(Number(decimal))}` : `${decimal} ${currency}`;
}

/** A day as the consumer reads it (UTC): `November 28, 2026`. */
export function dayInWords(date: Date | string): string {
  return LONG_DAY.format(typeof date === "string" ? new Date(date) : date);
}
