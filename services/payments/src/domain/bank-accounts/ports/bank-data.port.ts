/**
 * The bank-data capability (Plaid in live mode, a simulator in the sandbox): bank-linking
 * tokens for the provider's account-picker UI, public-token exchange, and processor tokens that
 * let the transfer provider debit the chosen account.
 *
 * Adapters throw AppError only: `provider_error` (502) with the provider's code in
 * `providerCode` when the provider refuses or fails, and `parameter_invalid` (400) where the
 * refusal is about a value the caller sent (a used or expired public token). Vendor types and
 * vendor errors never leave the adapter, so nothing secret reaches a log through a stack.
 */
export interface BankDataPort {
  /** Recorded with each payment method, so a later step knows which provider holds the item. */
  readonly provider: "plaid" | "sandbox";

  /** A bank-linking token for one consumer, opened for one checkout. */
  createLinkToken(input: { clientUserId: string; checkoutId: string }): Promise<BankLinkToken>;

  /**
   * Exchanges a public token (single use, short-lived) for a long-lived access token to the
   * consumer's item. A used, expired or unknown token: AppError `parameter_invalid`
   * (param `public_token`).
   */
  exchangePublicToken(publicToken: string): Promise<ExchangedItem>;

  /** A processor token that lets the transfer provider (Dwolla) use one account of the item. */
  createProcessorToken(input: { accessToken: string; accountId: string; processor: "dwolla" }): Promise<ProcessorToken>;

  /** The chosen account's bank and last digits, as a mandate records them, and whether the provider validated it (AppError as above). */
  describeAccount(input: { accessToken: string; accountId: string }): Promise<AccountDescription>;

  /**
   * Sandbox only (absent on live adapters): what the provider's UI would hand the front end
   * once the consumer picked their bank, for a bank-linking token this adapter issued (to the
   * consumer `forUserId`, when given: another consumer's token is as unknown as a wrong one).
   */
  createSandboxPublicToken?(linkToken: string, forUserId?: string): Promise<SandboxPublicToken>;
}

export interface BankLinkToken {
  linkToken: string;
  /** ISO 8601 UTC. */
  expiration: string;
  requestId: string;
}

export interface ExchangedItem {
  /** The provider's long-lived credential: sealed before it is stored, never logged or returned. */
  accessToken: string;
  itemId: string;
  requestId: string;
}

export interface AccountDescription {
  /** The bank's name (or the provider's id of it when no name is known). */
  institution: string | null;
  /** The account number's last digits. */
  mask: string | null;
  /**
   * Whether the provider validated the account: it returned the account and routing numbers
   * (Plaid Auth, or a verified micro-deposit flow of its own). Otherwise micro-deposits must
   * validate it before its first debit (NACHA's WEB rule).
   */
  validated: boolean;
}

export interface ProcessorToken {
  processorToken: string;
  requestId: string;
}

export type AccountSubtype = "checking" | "savings" | "other";

export interface BankAccount {
  accountId: string;
  name: string;
  mask: string;
  subtype: AccountSubtype;
}

export interface SandboxPublicToken {
  publicToken: string;
  accounts: BankAccount[];
}
