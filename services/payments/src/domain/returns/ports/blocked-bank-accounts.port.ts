import type { BlockedBankAccountRecord } from "../blocked-bank-account.entity.ts";

/** Bank accounts no debit may be made from, by fingerprint (docs/api-notes.md, Returns and blocked bank accounts). */
export interface BlockedBankAccountsPort {
  /** Blocks the account in one conditional insert: the first block wins; answers the block that stands. */
  block(record: BlockedBankAccountRecord): Promise<BlockedBankAccountRecord>;
  /** The block on this fingerprint, or null when the account may be debited (or has no fingerprint). */
  find(fingerprint: string | null | undefined): Promise<BlockedBankAccountRecord | null>;
}
