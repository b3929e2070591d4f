/** NACHA's descriptions of the return codes a transfer most often comes back with. */
const ACH_RETURN_REASONS: Record<string, string> = {
  R01: "Insufficient funds",
  R02: "Account closed",
  R03: "No account, or unable to locate the account",
  R04: "Invalid account number",
  R05: "Unauthorized debit to a consumer account",
  R06: "Returned at the originating bank's request",
  R07: "Authorization revoked by the customer",
  R08: "Payment stopped",
  R09: "Uncollected funds",
  R10: "Customer advises the debit was not authorized",
  R11: "Entry not in accordance with the authorization",
  R12: "Account sold to another bank",
  R13: "Invalid routing number",
  R14: "Representative payee deceased",
  R15: "Beneficiary or account holder deceased",
  R16: "Account frozen",
  R17: "File record edit criteria",
  R20: "Non-transaction account",
  R23: "Credit entry refused by the receiver",
  R24: "Duplicate entry",
  R29: "Corporate customer advises the debit was not authorized",
};

/**
 * Why a transfer failed, in words, from the code the provider reported: an ACH return code
 * (R01…) read from NACHA's table, or `cancelled`. A refusal at creation carries its own words.
 */
export function transferFailureReason(code: string): string {
  if (code === "cancelled") return "The transfer was cancelled before it settled";
  const reason = ACH_RETURN_REASONS[code];
  if (reason) return `${reason} (ACH return ${code})`;
  return /^R\d{2}$/.test(code) ? `Returned by the bank (ACH return ${code})` : `The transfer failed (${code})`;
}
