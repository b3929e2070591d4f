import type { OutboxFields } from "@payrail/store";
import type { AccountValidationRecord, MicroDepositsRecord } from "./account-validation.ts";
import type { MandateRecord } from "../mandates/mandate.entity.ts";

/**
 * Which account of a checkout's payment method micro-deposits act on: the one it draws on
 * (`current`), or the account a subscription's consumer chose to draw on next (`pending`,
 * docs/decisions/0043-portal-micro-deposits.md).
 */
export type AccountSlot = "current" | "pending";

/** The first consumer to use a checkout holds it (`_id` is the checkout id: one claim each). */
export interface ClaimRecord {
  _id: string;
  userId: string;
  claimedAt: string;
}

/** The consumer's bank account for one checkout (`_id` is the checkout id). */
export interface PaymentMethodRecord extends OutboxFields {
  _id: string;
  checkoutNumber: number;
  merchantId: string;
  userId: string;
  /** The consumer's verified phone (E.164), for the transfer provider's customer record. */
  userPhone: string;
  provider: "plaid" | "sandbox";
  itemId: string;
  /** The provider's account id the consumer chose (`bankdata_account_id`). */
  accountId: string;
  /** The provider's access token, sealed by SecretBox with the checkout id as context. */
  accessTokenSealed: string;
  createdAt: string;
  updatedAt: string;
  /** The account's bank and last digits (for the mandate); absent on methods saved before mandates. */
  bankAccount?: { institution: string | null; mask: string | null };
  /**
   * The mandate the consumer accepted with this account (docs/api-notes.md, Mandates); null when none was sent
   * (the merchant attests at the debit). Set, it must be active for any debit.
   */
  mandateId?: string | null;
  /**
   * The transfer provider's fingerprint of this bank account, when a consumer's re-link made its
   * funding source (blocked_bank_accounts is keyed by it). A first debit's is on the transfer
   * attempt only (`fundingFingerprint`), which is what the portal reads.
   */
  fingerprint?: string | null;
  /** Counts the saves (1 for the first): its payment_method.saved events' version. Absent before events. */
  version?: number;
  /**
   * How the account was validated (docs/decisions/0041-account-validation.md); null: not yet,
   * and no debit is made from it. Absent on methods saved before validation was recorded:
   * those came from the bank-data provider's Auth (validationOf).
   */
  validation?: AccountValidationRecord | null;
  /** The micro-deposits sent to validate the account, when the bank-data provider could not. */
  microDeposits?: MicroDepositsRecord | null;
  /**
   * Counts the validation's changes across the checkout's links: every micro-deposit write is
   * conditional on it (and on `accountId`), and the bank_account.* events carry it as their version.
   */
  validationVersion?: number;
  /**
   * A subscription's change of account kept until micro-deposits validate the account chosen
   * (docs/decisions/0043-portal-micro-deposits.md): the subscription draws on the account above
   * meanwhile. Null or absent: none.
   */
  pendingRelink?: PendingRelinkRecord | null;
}

/**
 * The account a subscription's consumer chose that the bank-data provider could not validate,
 * with the mandate they accepted for it (stored, with mandate.created, only at the switch).
 * Its validation is counted by the method's `validationVersion`, as the current account's is.
 */
export interface PendingRelinkRecord {
  itemId: string;
  accountId: string;
  /** Sealed with the checkout id as context, as the method's own. */
  accessTokenSealed: string;
  bankAccount: { institution: string | null; mask: string | null };
  mandate: MandateRecord;
  chosenAt: string;
  validation: AccountValidationRecord | null;
  microDeposits: MicroDepositsRecord | null;
}
