import { z } from "zod";

/** Largest amount accepted anywhere (docs/api-notes.md, The checkout): 99,999,999.99. */
export const MAX_AMOUNT_CENTS = 9_999_999_999;

/**
 * An amount's text (docs/decisions/0006-strict-amounts.md): digits without a sign, spaces or
 * leading zeros, at most 2 fraction digits. A string must be exactly this; a JSON number must
 * print as it. MAX_AMOUNT_CENTS bounds both.
 */
export const AMOUNT_TEXT = /^(0|[1-9]\d*)(\.\d{1,2})?$/;

/**
 * Converts a decimal amount as a merchant sends it (a JSON number, or a string of the form
 * above) to integer cents, or returns null when it is not one. Works on the decimal text,
 * never on binary floating point arithmetic, so 0.29 is 29 cents exactly.
 */
export function toCents(value: unknown): number | null {
  let text: string;
  if (typeof value === "number") {
    // -0 carries a sign; 1e-7, 1e21 or 12.345 print in a form the pattern refuses, as they should.
    if (!Number.isFinite(value) || value < 0 || Object.is(value, -0)) return null;
    text = String(value);
  } else if (typeof value === "string") {
    text = value;
  } else {
    return null;
  }
  if (!AMOUNT_TEXT.test(text)) return null;
  const [whole = "0", frac = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/** Integer cents back to the two-digit decimal text, for messages, provider calls and signed balances (`-12.50`). */
export function centsToDecimal(cents: number): string {
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  return cents < 0 ? `-${text}` : text;
}

/**
 * A decimal amount in the form it was sent (number or numeric string). The form is kept so
 * the stored checkout echoes it; services compute with `toCents`. Every amount a merchant or
 * consumer sends goes through this one schema, and anything else there (a wrong type too) is
 * 400 `amount_invalid` naming the field. The JSON Schema states the rule for the reference.
 */
export const DecimalAmount = z
  .custom<number | string>((v) => toCents(v) !== null, {
    message: "must be a non-negative decimal of at most 99999999.99 with at most 2 fraction digits, and as a string no spaces, sign or leading zeros",
    params: { code: "amount_invalid" },
  })
  .meta({ type: ["number", "string"], pattern: AMOUNT_TEXT.source, minimum: 0, maximum: MAX_AMOUNT_CENTS / 100 } as Record<string, unknown>);
export type DecimalAmount = z.infer<typeof DecimalAmount>;
