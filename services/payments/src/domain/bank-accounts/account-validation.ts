import { AppError, type AccountValidation, type BankAccountValidationState, type ValidationMethod } from "@payrail/contracts";

/** What the validation of a payment method is read from (its record, payment-method.entity.ts). */
interface ValidatedMethod {
  _id: string;
  createdAt: string;
  updatedAt: string;
  validation?: AccountValidationRecord | null;
  microDeposits?: MicroDepositsRecord | null;
  /** `pending`: a subscription's change of account, not drawn on yet (micro-deposits-account.ts). */
  slot?: "current" | "pending";
}

/** How and when a bank account was validated (docs/decisions/0041-account-validation.md). */
export interface AccountValidationRecord {
  method: ValidationMethod;
  validatedAt: string;
}

/**
 * The micro-deposits of one account. `round` counts the pairs sent to it (a new pair after the
 * last expired): the provider's keys of a round derive from it, so racing or repeated starts
 * of one round send one pair.
 */
export interface MicroDepositsRecord {
  round: number;
  status: "sending" | "sent" | "validated" | "locked";
  startedAt: string;
  /** The funding source the deposits went to, and the provider's reference to the pair. */
  fundingSourceUrl: string | null;
  reference: string | null;
  sentAt: string | null;
  expiresAt: string | null;
  failedTries: number;
}

/** Three wrong pairs lock the account. */
export const MICRO_DEPOSIT_TRIES = 3;
/** The amounts are accepted for 10 days after they were sent. */
export const MICRO_DEPOSITS_EXPIRE_MS = 10 * 86_400_000;

/**
 * The account's validation. A method saved before validation was recorded (`validation`
 * absent) came from the bank-data provider's Auth, which returned its numbers: validated by
 * `bank_data_provider` when it was linked.
 */
export function validationOf(method: Omit<ValidatedMethod, "_id">): AccountValidationRecord | null {
  if (method.validation === undefined) return { method: "bank_data_provider", validatedAt: method.updatedAt };
  return method.validation;
}

export function toValidationView(v: AccountValidationRecord | null): AccountValidation | null {
  return v ? { method: v.method, validated_at: v.validatedAt } : null;
}

/** Whether the pair sent can no longer be entered. */
export function microDepositsExpired(md: MicroDepositsRecord, now: Date): boolean {
  return md.status === "sent" && md.expiresAt !== null && Date.parse(md.expiresAt) <= now.getTime();
}

/** Where the account stands, as both consumer routes and the bank_account.* events show it. */
export function toValidationState(method: ValidatedMethod): BankAccountValidationState {
  const validation = validationOf(method);
  const md = method.microDeposits ?? null;
  const status = validation ? "validated" : md?.status === "locked" ? "locked" : md?.status === "sent" ? "micro_deposits_sent" : "validation_required";
  return {
    object: "bank_account_validation",
    checkout_id: method._id,
    status,
    pending_change: method.slot === "pending",
    validation: toValidationView(validation),
    micro_deposits:
      md?.sentAt && md.expiresAt ? { sent_at: md.sentAt, expires_at: md.expiresAt, tries_left: Math.max(0, MICRO_DEPOSIT_TRIES - md.failedTries) } : null,
  };
}

/** 409: no debit from an account that was not validated; the consumer verifies micro-deposits (or links another account). */
export function bankAccountNotValidated(checkoutId: string, why = "the consumer must verify the micro-deposits sent to it first"): AppError {
  return new AppError("bank_account_not_validated", `the bank account of checkout ${checkoutId} is not validated: ${why}`, { param: "checkout_id" });
}
