import { insertOrGet, type Store } from "@payrail/store";
import type { BlockedBankAccountRecord } from "../domain/returns/blocked-bank-account.entity.ts";
import type { BlockedBankAccountsPort } from "../domain/returns/ports/blocked-bank-accounts.port.ts";

export const BLOCKED_BANK_ACCOUNTS_COLLECTION = "blocked_bank_accounts";

/** Blocked bank accounts, keyed by fingerprint (`_id`): every lookup is by the primary key. */
export class BlockedBankAccountRepository implements BlockedBankAccountsPort {
  constructor(private readonly store: Store) {}

  private get blocks() {
    return this.store.collection<BlockedBankAccountRecord>(BLOCKED_BANK_ACCOUNTS_COLLECTION);
  }

  async block(record: BlockedBankAccountRecord): Promise<BlockedBankAccountRecord> {
    return (await insertOrGet(this.blocks, record)).doc;
  }

  async find(fingerprint: string | null | undefined): Promise<BlockedBankAccountRecord | null> {
    return fingerprint ? this.blocks.findOne({ _id: fingerprint }) : null;
  }
}
