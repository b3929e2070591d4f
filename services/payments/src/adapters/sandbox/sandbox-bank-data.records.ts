import type { BankAccount } from "../../domain/ports/bank-data.port.ts";

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

export interface SandboxPublicTokenRecord {
  _id: string;
  itemId: string;
  accounts: BankAccount[];
  expiresAt: string;
  /** Set by the one exchange that consumed the token. */
  usedAt: string | null;
  createdAt: string;
}

export interface SandboxItemRecord {
  /** SHA-256 of the access token. */
  _id: string;
  itemId: string;
  accounts: BankAccount[];
  createdAt: string;
}

export interface SandboxProcessorTokenRecord {
  _id: string;
  itemId: string;
  account: BankAccount;
  processor: string;
  createdAt: string;
}
