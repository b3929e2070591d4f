import { AppError } from "@payrail/contracts";
import { randomUUID, sha256Hex } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type {
  AccountDescription,
  BankAccount,
  BankDataPort,
  BankLinkToken,
  ExchangedItem,
  ProcessorToken,
  SandboxPublicToken,
} from "../../domain/bank-accounts/ports/bank-data.port.ts";
import type {
  SandboxItemRecord,
  SandboxLinkTokenRecord,
  SandboxAccount,
  SandboxProcessorTokenRecord,
  SandboxPublicTokenRecord,
} from "./sandbox-bank-data.records.ts";
import { SANDBOX_PROCESSOR_TOKENS } from "./sandbox-bank-data.records.ts";

/** Lifetimes as Plaid documents them: bank-linking tokens 4 hours, public tokens 30 minutes. */
export const SANDBOX_LINK_TOKEN_TTL_MS = 4 * 60 * 60 * 1000;
export const SANDBOX_PUBLIC_TOKEN_TTL_MS = 30 * 60 * 1000;

/**
 * Every sandbox item holds these accounts: Plaid's sandbox pair, whose numbers the provider
 * returns (validated at link time), and one it cannot validate, which needs micro-deposits.
 */
const ACCOUNT_TEMPLATES: readonly (Omit<BankAccount, "accountId"> & { unverifiable?: true })[] = [
  { name: "Plaid Checking", mask: "0000", subtype: "checking" },
  { name: "Plaid Saving", mask: "1111", subtype: "savings" },
  { name: "Unverifiable Checking", mask: "2222", subtype: "checking", unverifiable: true },
];

/** The bank every sandbox item is at (Plaid's sandbox institution), and its routing number. */
const SANDBOX_INSTITUTION = "First Platypus Bank";
const SANDBOX_ROUTING_NUMBER = "011401533";

/**
 * The consumer's sandbox accounts: the same numbers every time that consumer links (so a
 * re-link of the same account is recognised by its fingerprint, whatever the checkout or
 * merchant), other numbers for any other consumer (so one consumer's blocked account never
 * blocks another's, in tests sharing a store). The last four digits are the account's mask.
 */
function sandboxAccounts(clientUserId: string): SandboxAccount[] {
  const digits = BigInt(`0x${sha256Hex(`sandbox-account:${clientUserId}`).slice(0, 15)}`).toString().slice(0, 8).padStart(8, "0");
  return ACCOUNT_TEMPLATES.map((a) => ({
    ...a,
    accountId: randomUUID().replaceAll("-", ""),
    routingNumber: SANDBOX_ROUTING_NUMBER,
    accountNumber: `${digits}${a.mask}`,
  }));
}

/**
 * A deterministic bank-data simulator with Plaid's token shapes and rules: `link-sandbox-`,
 * `public-sandbox-` (single use: consumed by one conditional write), `access-sandbox-` and
 * `processor-sandbox-` tokens followed by a UUID.
 */
export class SandboxBankDataAdapter implements BankDataPort {
  readonly provider = "sandbox" as const;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  private get linkTokens() {
    return this.store.collection<SandboxLinkTokenRecord>("sandbox_link_tokens");
  }
  private get publicTokens() {
    return this.store.collection<SandboxPublicTokenRecord>("sandbox_public_tokens");
  }
  private get items() {
    return this.store.collection<SandboxItemRecord>("sandbox_items");
  }
  private get processorTokens() {
    return this.store.collection<SandboxProcessorTokenRecord>(SANDBOX_PROCESSOR_TOKENS);
  }

  async createLinkToken(input: { clientUserId: string; checkoutId: string }): Promise<BankLinkToken> {
    const linkToken = `link-sandbox-${randomUUID()}`;
    const expiration = new Date(this.now() + SANDBOX_LINK_TOKEN_TTL_MS).toISOString();
    await this.linkTokens.insertOne({ _id: sha256Hex(linkToken), ...input, expiresAt: expiration, createdAt: this.iso() });
    return { linkToken, expiration, requestId: requestId() };
  }

  async createSandboxPublicToken(linkToken: string, forUserId?: string): Promise<SandboxPublicToken> {
    const link = await this.linkTokens.findOne({ _id: sha256Hex(linkToken) });
    if (!link || link.expiresAt <= this.iso() || (forUserId !== undefined && link.clientUserId !== forUserId)) {
      throw new AppError("parameter_invalid", "link_token is not an unexpired bank-linking token from Create Link Token", {
        param: "link_token",
        providerCode: "INVALID_LINK_TOKEN",
      });
    }
    const publicToken = `public-sandbox-${randomUUID()}`;
    const accounts = sandboxAccounts(link.clientUserId);
    await this.publicTokens.insertOne({
      _id: sha256Hex(publicToken),
      itemId: `item-sandbox-${randomUUID()}`,
      accounts,
      expiresAt: new Date(this.now() + SANDBOX_PUBLIC_TOKEN_TTL_MS).toISOString(),
      usedAt: null,
      createdAt: this.iso(),
    });
    // The numbers stay in the simulator, as Plaid shows only masks to the front end.
    return { publicToken, accounts: accounts.map(({ accountId, name, mask, subtype }) => ({ accountId, name, mask, subtype })) };
  }

  async exchangePublicToken(publicToken: string): Promise<ExchangedItem> {
    const now = this.iso();
    // Consumed in one conditional write: of two racing exchanges exactly one gets the item.
    const used = await this.publicTokens.findOneAndUpdate(
      { _id: sha256Hex(publicToken), usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
    );
    if (!used) {
      throw new AppError("parameter_invalid", "public_token is invalid, expired or already used", {
        param: "public_token",
        providerCode: "INVALID_PUBLIC_TOKEN",
      });
    }
    const accessToken = `access-sandbox-${randomUUID()}`;
    await this.items.insertOne({ _id: sha256Hex(accessToken), itemId: used.itemId, accounts: used.accounts, createdAt: now });
    return { accessToken, itemId: used.itemId, requestId: requestId() };
  }

  async createProcessorToken(input: { accessToken: string; accountId: string; processor: "dwolla" }): Promise<ProcessorToken> {
    const item = await this.items.findOne({ _id: sha256Hex(input.accessToken) });
    if (!item) throw providerError("INVALID_ACCESS_TOKEN", "the access token is not valid");
    const account = item.accounts.find((a) => a.accountId === input.accountId);
    if (!account) throw providerError("INVALID_ACCOUNT_ID", "the account is not part of this item");
    const processorToken = `processor-sandbox-${randomUUID()}`;
    await this.processorTokens.insertOne({
      _id: sha256Hex(processorToken),
      itemId: item.itemId,
      account,
      processor: input.processor,
      createdAt: this.iso(),
    });
    return { processorToken, requestId: requestId() };
  }

  async describeAccount(input: { accessToken: string; accountId: string }): Promise<AccountDescription> {
    const item = await this.items.findOne({ _id: sha256Hex(input.accessToken) });
    if (!item) throw providerError("INVALID_ACCESS_TOKEN", "the access token is not valid");
    const account = item.accounts.find((a) => a.accountId === input.accountId);
    if (!account) throw providerError("INVALID_ACCOUNT_ID", "the account is not part of this item");
    // Accounts kept before the unverifiable one existed lack the flag: they were all validated.
    return { institution: SANDBOX_INSTITUTION, mask: account.mask, validated: account.unverifiable !== true };
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** Plaid's request ids are short opaque strings; the simulator's look alike. */
function requestId(): string {
  return randomUUID().replaceAll("-", "").slice(0, 15);
}

function providerError(code: string, message: string): AppError {
  return new AppError("provider_error", `the bank-data provider refused the request: ${message}`, { providerCode: code });
}
