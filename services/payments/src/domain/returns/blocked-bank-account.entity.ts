/**
 * ACH return codes after which a bank account is never debited again, by any merchant
 * (docs/api-notes.md, Returns and blocked bank accounts): the account is closed, absent or invalid (R02, R03, R04), or its owner says the debits
 * were not authorized or the authorization is revoked (R05, R07, R10, R29). R11 (a debit that
 * did not match its authorization) is unauthorized for the return rates but blocks nothing:
 * the account itself may be debited correctly.
 */
export const BLOCKING_RETURN_CODES: ReadonlySet<string> = new Set(["R02", "R03", "R04", "R05", "R07", "R10", "R29"]);

/**
 * A blocked bank account (`_id` is the transfer provider's fingerprint of it): the first
 * blocking return wins and is kept, whichever merchant's debit it was.
 */
export interface BlockedBankAccountRecord {
  _id: string;
  /** The return code that blocked it. */
  failureCode: string;
  blockedAt: string;
  /** The debit that came back: its transaction, checkout and merchant. */
  transactionUuid: string;
  checkoutId: string;
  merchantId: string;
}
