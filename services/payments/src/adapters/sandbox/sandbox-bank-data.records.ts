import type { BankAccount } from "../../domain/bank-accounts/ports/bank-data.port.ts";

/*
 * The simulator's own state, in the store so that every payments instance sees the same
 * tokens. Tokens are keyed by their SHA-256, like every other secret here.
 */

export interface SandboxLinkTokenRecord {
  _id: string;
  clientUserId: string;
  checkoutId: string;
  expiresAt: string;
  createdAt: string;
}

/**
 * A sandbox account with the numbers a bank would hold (the transfer simulator fingerprints
 * them, as Dwolla fingerprints the real ones). Absent on accounts linked before they were kept.
 */
export interface SandboxAccount extends BankAccount {
  routingNumber?: string;
  accountNumber?: string;
  /** "Unverifiable Checking": the provider returns no numbers for it, so micro-deposits validate it. */
  unverifiable?: boolean;
}

export const SANDBOX_PROCESSOR_TOKENS = "sandbox_processor_tokens";

export interface SandboxPublicTokenRecord {
  _id: string;
  itemId: string;
  accounts: SandboxAccount[];
  expiresAt: string;
  /** Set by the one exchange that consumed the token. */
  usedAt: string | null;
  createdAt: string;
}

export interface SandboxItemRecord {
  /** SHA-256 of the access token. */
  _id: string;
  itemId: string;
  accounts: SandboxAccount[];
  createdAt: string;
}

export interface SandboxProcessorTokenRecord {
  _id: string;
  itemId: string;
  account: SandboxAccount;
  processor: string;
  createdAt: string;
}
