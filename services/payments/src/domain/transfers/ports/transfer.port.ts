import { AppError } from "@payrail/contracts";

/**
 * The transfer capability (Dwolla in live mode, a simulator in the sandbox): a customer for the
 * consumer, a funding source for their bank account, and account-to-account transfers whose
 * status is read back later (or pushed to us by webhook).
 *
 * Provider-neutral: money is integer cents plus a currency, statuses are ours, references to the
 * provider's resources are opaque strings to be stored and handed back. Every method throws
 * AppError `provider_error` (502) with the provider's code in `providerCode` when the provider
 * refuses or fails; `providerCode: "network_error"` means no answer came, so the call may or may
 * not have taken effect and must be retried with the same idempotency key.
 */
/** What findTransfer searches by: the key, and whose transfers hold it. */
export interface FindTransferInput {
  idempotencyKey: string;
  customerUrl: string | null;
  fundingSourceUrl?: string | null;
}

export interface TransferPort {
  /** Recorded with each transfer, so a later step knows which provider holds it. */
  readonly provider: "dwolla" | "sandbox";

  /**
   * The consumer's customer at the provider (one that can send and receive without full
   * verification), created on the first call. Idempotent per `userId`: the provider's
   * idempotency key is derived from it, so repeated or concurrent calls answer the same customer.
   */
  ensureCustomer(input: EnsureCustomerInput): Promise<TransferCustomer>;

  /**
   * Attaches the bank account behind a bank-data processor token to the customer. Repeating a
   * call with the same `idempotencyKey` answers the same funding source.
   */
  createFundingSource(input: CreateFundingSourceInput): Promise<FundingSource>;

  /**
   * Starts one transfer. The provider keeps `idempotencyKey`: a repeat with the same key (even
   * after our own records failed half-way) answers the transfer the first call started, never a
   * second one. Throws `TransferRefused` when the provider refused this transfer for good (what
   * we sent, or an account, is not acceptable): the same request can never succeed.
   */
  createTransfer(input: CreateTransferInput): Promise<CreatedTransfer>;

  /** Reads a transfer's current status (and, once failed, its ACH return code). */
  getTransfer(transferId: string): Promise<TransferState>;

  /**
   * The transfer created with this idempotency key, or null when the provider has none: the
   * key is also the transfer's correlation id at the provider. For what a key no longer
   * protects: past the provider's idempotency window (Dwolla: 24 h) a repeated create would make
   * a second transfer, so a resume, and the reconciler, look the transfer up first.
   * The provider lists transfers by their owner (Dwolla: a customer's, or the platform account's):
   * `customerUrl` names the consumer whose transfers to search; a transfer with no consumer (a
   * merchant payout) names `fundingSourceUrl`, the funding source it left from, whose owner the
   * provider then searches.
   */
  findTransfer(input: FindTransferInput): Promise<CreatedTransfer | null>;

  /**
   * Sends two micro-deposits (each under $1, described `ACCTVERIFY`) to the bank account behind
   * a funding source, with the debit that takes them back (Dwolla:
   * `POST /funding-sources/{id}/micro-deposits`). Repeating a call with the same `idempotencyKey`
   * answers the same deposits, never a second pair.
   */
  initiateMicroDeposits(input: { fundingSourceUrl: string; idempotencyKey: string }): Promise<MicroDeposits>;

  /**
   * Checks the consumer's two amounts (cents, in any order) against the deposits of
   * `reference`: `verified` (the funding source is verified at the provider) or `wrong`.
   * Deposits the provider no longer accepts amounts for: TransferRefused.
   */
  verifyMicroDeposits(input: { fundingSourceUrl: string; reference: string; amountsCents: readonly [number, number] }): Promise<"verified" | "wrong">;
}

export interface MicroDeposits {
  /** The provider's reference to this pair of deposits; store it and pass it back as is. */
  reference: string;
  /**
   * The two amounts, from the sandbox only (no real statement shows them there: the sandbox's
   * notices do). A live provider never reveals them.
   */
  sandboxAmountsCents?: [number, number];
}

/** How long the provider deduplicates an idempotency key (Dwolla: 24 hours). */
export const PROVIDER_IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** Our statuses (docs/api-notes.md, Moving money). Vendor statuses we do not know map to `pending`. */
export type TransferStatus = "pending" | "completed" | "failed" | "cancelled";

/** Final statuses: a transfer in one of these never moves again. */
export const FINAL_TRANSFER_STATUSES: readonly TransferStatus[] = ["completed", "failed", "cancelled"];

export interface EnsureCustomerInput {
  /** Our user id (32 hex); the provider-side idempotency key is derived from it. */
  userId: string;
  /** The user's verified phone, E.164. Providers that take no phone ignore it. */
  phone: string;
  /** Defaults chosen by the adapter when absent (we only know a phone number). */
  firstName?: string;
  lastName?: string;
  email?: string;
}

export interface TransferCustomer {
  /** The provider's reference to the customer; store it and pass it back as is. */
  customerUrl: string;
}

export interface CreateFundingSourceInput {
  customerUrl: string;
  /** Bank-data processor token for one account (a secret: never stored or logged). */
  processorToken: string;
  /** Nickname shown at the provider, e.g. "Plaid Checking 0000". At most 50 characters. */
  name: string;
  /** Same key, same funding source: derive it from what the funding source is for. */
  idempotencyKey: string;
}

export interface FundingSource {
  /** The provider's reference to the funding source; store it and pass it back as is. */
  fundingSourceUrl: string;
  /**
   * The provider's fingerprint of the bank account behind it (Dwolla's `fingerprint`): the same
   * for every funding source of the same routing and account number, whoever linked it, so a
   * blocked account is recognised when it is linked again. Null when the provider gave none.
   */
  fingerprint: string | null;
}

export interface CreateTransferInput {
  /** Funding source the money leaves (the consumer's for a payment, the merchant's for a refund). */
  sourceFundingSource: string;
  destinationFundingSource: string;
  /** Positive integer, in cents. */
  amountCents: number;
  /** ISO 4217, three uppercase letters; providers here move USD only. */
  currency: string;
  /** At most 255 characters; one key per transfer we mean to make (e.g. per checkout). */
  idempotencyKey: string;
  /** Up to 10 string pairs kept with the transfer at the provider, for reconciliation. */
  metadata?: Record<string, string>;
}

export interface CreatedTransfer {
  /** The provider's transfer id, a UUID: this is `processor_transaction_id`. */
  transferId: string;
  transferUrl: string;
  status: TransferStatus;
}

export interface TransferState {
  transferId: string;
  status: TransferStatus;
  /** ACH return code (R01, R02, ...) when the transfer failed and the provider gave one. */
  failureCode?: string;
}

/**
 * A change of a transfer's status, whichever way it arrived (provider webhook, or a sandbox
 * simulation), so both go through one code path. `eventId` makes processing idempotent: the
 * same event may be delivered more than once.
 */
export interface TransferStatusEvent {
  eventId: string;
  transferId: string;
  status: TransferStatus;
  failureCode?: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
}

/**
 * The provider refused a transfer for good: it answered, and the answer says the request itself
 * cannot succeed (a validation error, an unusable funding source, a restricted account). Still a
 * 502 `provider_error` with the provider's code to a caller that does not look closer; a
 * refund's payout is recorded failed on it, while any other provider error may be retried with
 * the same idempotency key.
 */
export class TransferRefused extends AppError {
  constructor(message: string, providerCode: string) {
    super("provider_error", message, { providerCode });
  }
}
