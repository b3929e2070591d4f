import { z } from "zod";
import { AppError } from "../errors.ts";
import { AMOUNT_TEXT, MAX_AMOUNT_CENTS, toCents } from "./money.schema.ts";

/**
 * A list's amount range, `amount_gte` and `amount_lte`, both inclusive
 * (docs/decisions/0055-amount-filters.md). Each bound is read by the strict amount reading of
 * docs/decisions/0006-strict-amounts.md (`toCents`), and a bad one is 400 `amount_invalid` naming it,
 * as every bad amount is.
 */
const UNSIGNED_MESSAGE = "must be a decimal amount such as 10.00: at most 99999999.99, at most 2 fraction digits, no spaces, sign or leading zeros";
const SIGNED_MESSAGE = "must be a signed decimal amount such as -10.00 or 10.00: at most 99999999.99, at most 2 fraction digits, no spaces, + or leading zeros";

/** A balance transaction's bound may carry a `-` (its amounts are signed); `-0` is refused as in 0006. */
function signedCents(value: unknown): number | null {
  if (typeof value !== "string") return null;
  if (!value.startsWith("-")) return toCents(value);
  const cents = toCents(value.slice(1));
  return cents === null || cents === 0 ? null : -cents;
}

const unsignedCents = (value: unknown): number | null => (typeof value === "string" ? toCents(value) : null);

const bound = (cents: (value: unknown) => number | null, message: string, pattern: string, minimum: number) =>
  z
    .custom<string>((v) => cents(v) !== null, { message, params: { code: "amount_invalid" } })
    .meta({ type: "string", pattern, minimum, maximum: MAX_AMOUNT_CENTS / 100 } as Record<string, unknown>);

const AmountBound = bound(unsignedCents, UNSIGNED_MESSAGE, AMOUNT_TEXT.source, 0);
const SignedAmountBound = bound(signedCents, SIGNED_MESSAGE, `^-?${AMOUNT_TEXT.source.slice(1)}`, -MAX_AMOUNT_CENTS / 100);

/** The amount filters of checkouts and refunds, whose amounts are never negative. */
export const AmountFilters = z.object({
  amount_gte: AmountBound.optional().describe("Only those of at least this amount (a decimal string, `10.00`; inclusive)"),
  amount_lte: AmountBound.optional().describe("Only those of at most this amount (a decimal string, `250.00`; inclusive)"),
});

/** The amount filters of balance transactions: on the signed amount, as the list shows it (`-12.50` is a refund of 12.50). */
export const SignedAmountFilters = z.object({
  amount_gte: SignedAmountBound.optional().describe("Only those whose signed amount is at least this (`-50.00`, `10.00`; inclusive)"),
  amount_lte: SignedAmountBound.optional().describe("Only those whose signed amount is at most this (`-10.00`, `250.00`; inclusive)"),
});

/** A list's amount range in integer cents, both inclusive; absent ends are unbounded. */
export interface CentsRange {
  minCents?: number | undefined;
  maxCents?: number | undefined;
}

/**
 * The query's amount bounds as cents (already validated by the schemas above); a range whose
 * `amount_gte` is above its `amount_lte` holds nothing and is 400 `amount_invalid` naming
 * `amount_gte`, as a mistake to say rather than an empty page to puzzle over.
 */
export function normalizedAmounts(query: { amount_gte?: string | undefined; amount_lte?: string | undefined }): CentsRange {
  const minCents = query.amount_gte === undefined ? undefined : (signedCents(query.amount_gte) ?? undefined);
  const maxCents = query.amount_lte === undefined ? undefined : (signedCents(query.amount_lte) ?? undefined);
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) {
    throw new AppError("amount_invalid", "amount_gte must not be above amount_lte", { param: "amount_gte" });
  }
  return { minCents, maxCents };
}
