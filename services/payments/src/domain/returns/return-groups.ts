/**
 * NACHA's return-rate groups (docs/api-notes.md, Returns and blocked bank accounts) and their thresholds, as fractions. A merchant above
 * one may lose the right to originate debits; Payrail warns at 80 % of each.
 */
export type ReturnGroup = "unauthorized" | "administrative" | "overall";

export const RETURN_THRESHOLDS: Readonly<Record<ReturnGroup, number>> = { unauthorized: 0.005, administrative: 0.03, overall: 0.15 };
export const WARNING_SHARE = 0.8;
export const RETURN_WINDOW_DAYS = 60;

const UNAUTHORIZED = new Set(["R05", "R07", "R10", "R11", "R29"]);
const ADMINISTRATIVE = new Set(["R02", "R03", "R04"]);

/**
 * The group a returned debit counts in besides `overall` (`other` for the rest), or null when
 * the failure is no ACH return (a cancellation, a refusal): those are no returns for NACHA.
 */
export function returnGroupOf(code: string | null | undefined): "unauthorized" | "administrative" | "other" | null {
  if (!code || !/^R\d{2}$/.test(code)) return null;
  if (UNAUTHORIZED.has(code)) return "unauthorized";
  return ADMINISTRATIVE.has(code) ? "administrative" : "other";
}
