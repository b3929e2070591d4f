import { centsToDecimal } from "./http/money.schema.ts";

// Written out rather than formatted by Intl: the first Intl formatter a process makes pages in
// ICU's locale and time-zone data from node's binary, about 5 MB that stay resident for the life
// of the process (docs/performance.md, Memory), for a few fixed en-US forms. The test checks
// them against Intl's own output.
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));

/** An amount as the consumer reads it in the authorization's words and the notices: `$1,234.50`, or `12.50 EUR`. */
export function amountInWords(cents: number, currency: string): string {
  return currency === "USD" ? `$${decimalInWords(cents)}` : `${centsToDecimal(cents)} ${currency}`;
}

/** Cents as a decimal with a comma between each three digits of the whole part: `-1,234,567.50`. */
export function decimalInWords(cents: number): string {
  const decimal = centsToDecimal(cents);
  const point = decimal.indexOf(".");
  return decimal.slice(0, point).replace(/\B(?=(\d{3})+$)/g, ",") + decimal.slice(point);
}

/** A day as the consumer reads it (UTC): `November 28, 2026`. */
export function dayInWords(date: Date | string): string {
  return inWords(date, MONTHS);
}

/** A day in a list (UTC): `Nov 28, 2026`. */
export function shortDayInWords(date: Date | string): string {
  return inWords(date, SHORT_MONTHS);
}

function inWords(date: Date | string, months: readonly string[]): string {
  const day = typeof date === "string" ? new Date(date) : date;
  if (Number.isNaN(day.getTime())) throw new RangeError(`not a date: ${String(date)}`);
  return `${months[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;
}
