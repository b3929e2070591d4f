import { AmountFilters, SignedAmountFilters } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { z } from "zod";

/**
 * What a person typed, trimmed (as the portal's refund form trims, docs/decisions/0006-strict-amounts.md); an
 * empty field is no bound. The rest is the API's own bound, so a bad amount is the API's 400
 * `amount_invalid` naming the field, as a page, before any list is read.
 */
const typed = (bound: z.ZodType<string | undefined>) => z.preprocess<unknown, z.ZodType<string | undefined>>((v) => (typeof v === "string" ? v.trim() || undefined : v), bound);

/** The amount fields of the Checkouts and Refunds pages: amounts that are never negative. */
export const AmountRangeQuery = z.object({ amount_gte: typed(AmountFilters.shape.amount_gte), amount_lte: typed(AmountFilters.shape.amount_lte) });
/** The Balance page's: the signed amount the list shows, so `-` is allowed. */
export const SignedAmountRangeQuery = z.object({ amount_gte: typed(SignedAmountFilters.shape.amount_gte), amount_lte: typed(SignedAmountFilters.shape.amount_lte) });
export type AmountRange = { amount_gte?: string | undefined; amount_lte?: string | undefined };

/** The range as the page's links, its export and the API take it: both ends inclusive, each only when given. */
export function amountFilters(range: AmountRange): AmountRange {
  return { ...(range.amount_gte ? { amount_gte: range.amount_gte } : {}), ...(range.amount_lte ? { amount_lte: range.amount_lte } : {}) };
}

/**
 * The Minimum and Maximum amount fields of a list's filter form: text with a decimal keypad (a
 * number input would take `1e3` and a locale's comma), both ends included; the hint says the form.
 */
export function amountFields(range: AmountRange, signed = false): Html {
  const hint = signed ? "e.g. 10.00, or -10.00 for money out; both included" : "e.g. 10.00; both included";
  const field = (name: "amount_gte" | "amount_lte", label: string) =>
    html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" inputmode="decimal" autocomplete="off" size="10" aria-describedby="amount-hint" value="${range[name] ?? ""}"></div>`;
  return html`${field("amount_gte", "Minimum amount")}${field("amount_lte", "Maximum amount")}<p id="amount-hint" class="muted">Amounts: ${hint}</p>`;
}
