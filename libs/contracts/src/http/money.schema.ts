import { z } from "zod";

/** Largest amount accepted anywhere (API.md §4): 99,999,999.99. */
export const MAX_AMOUNT_CENTS = 9_999_999_999;

const DECIMAL = /^\d{1,8}(\.\d{1,2})?$/;

/**
 * Converts a decimal amount as a merchant sends it (JSON number or numeric string, at most
 * two fraction digits) to integer cents, or returns null when it is not one. Works on the
 * decimal text, never on binary floating point arithmetic, so 0.29 is 29 cents exactly.
 */
export function toCents(value: unknown): number | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    // JSON numbers such as 1e-7 or 12.345 print in a form the pattern rejects, as they should.
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
  } else {
    return null;
  }
  if (!DECIMAL.test(text)) return null;
  const [whole = "0", frac = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/** Integer cents back to the two-digit decimal text, for messages and provider calls. */
export function centsToDecimal(cents: number): string {
  const whole = Math.floor(cents / 100);
  const frac = String(cents % 100).padStart(2, "0");
  return `${whole}.${frac}`;
}

/**
 * A decimal amount in the form it was sent (number or numeric string). The form is kept so
 * the stored checkout echoes it; services compute with `toCents`.
 */
export const DecimalAmount = z.union([z.number(), z.string()]).refine((v) => toCents(v) !== null, {
  message: "must be a non-negative decimal with at most 2 fraction digits and at most 99999999.99",
  params: { code: "amount_invalid" },
});
export type DecimalAmount = z.infer<typeof DecimalAmount>;
