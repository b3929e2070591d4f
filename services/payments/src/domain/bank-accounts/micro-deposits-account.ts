import { AppError, reachesMerchant, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import type { AccountSlot, PaymentMethodRecord } from "./payment-method.entity.ts";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";

export interface MicroDepositsAccountDeps {
  checkouts: Pick<CheckoutsPort, "verifyLinkToken">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "changeValidation">;
}

/** One change of the account's validation in its slot: the account after, or null when another change came first. */
export async function changeAccountValidation(
  deps: Pick<MicroDepositsAccountDeps, "paymentMethods">,
  account: AccountView,
  set: Pick<PaymentMethodRecord, "microDeposits"> & Partial<Pick<PaymentMethodRecord, "validation">>,
  events: Parameters<PaymentMethodsPort["changeValidation"]>[5],
): Promise<AccountView | null> {
  const saved = await deps.paymentMethods.changeValidation(account._id, account.slot, account.accountId, account.validationVersion, set, events);
  return saved ? accountInSlot(saved, account.slot) : null;
}

/**
 * The account as micro-deposits see it: the payment method, with a pending change's account,
 * token, bank, validation and micro-deposits in place of the current one's for `pending`. Both
 * are counted by the method's one `validationVersion`, so every write is conditional on it.
 */
export type AccountView = PaymentMethodRecord & { slot: AccountSlot };

export function accountInSlot(method: PaymentMethodRecord, slot: AccountSlot): AccountView {
  const pending = slot === "pending" ? method.pendingRelink : null;
  if (!pending) return { ...method, slot: "current" };
  const { itemId, accountId, accessTokenSealed, bankAccount, validation, microDeposits } = pending;
  return { ...method, itemId, accountId, accessTokenSealed, bankAccount, validation, microDeposits, mandateId: pending.mandate._id, slot };
}

/**
 * Whose account Start and Verify Micro-deposits act on, read again on every try of their
 * loops, and what follows a validation: a checkout's (named by the link token) or a
 * subscription's pending change (named by its transaction, for the portal).
 */
export interface ValidationSubject {
  read(): Promise<AccountView>;
  /** The account is validated (by this call, `byThisCall`, or an earlier one): what follows, and the answer. */
  settle(validated: AccountView, byThisCall: boolean): Promise<BankAccountValidationState>;
}

/** Concurrent changes of one account's validation that lose a race read it again; a few at most. */
export const VALIDATION_TRIES = 5;

/**
 * The bank account both micro-deposit routes act on: the one linked to the checkout the
 * consumer's link token names, when this consumer linked it. Another consumer (who holds the
 * link token too) gets the answer Exchange Public Token gives them, 409 `checkout_claimed`; a
 * checkout with no account yet, 409 `payment_method_missing`.
 */
export async function consumerAccount(
  deps: MicroDepositsAccountDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id?: string | undefined; link_token: string },
): Promise<AccountView> {
  const checkout = await deps.checkouts.verifyLinkToken(meta, input.checkout_id, input.link_token);
  if (!reachesMerchant(user, checkout.merchant_id)) throw new AppError("checkout_not_found", `no checkout ${checkout.id}`, { param: "checkout_id" });
  const method = await deps.paymentMethods.findByCheckout(checkout.id);
  if (!method) throw new AppError("payment_method_missing", `checkout ${checkout.id} has no linked bank account yet`, { param: "checkout_id" });
  if (method.userId !== user.userId) throw new AppError("checkout_claimed", `checkout ${checkout.id} is being paid by another consumer`, { param: "checkout_id" });
  return accountInSlot(method, "current");
}

/** 409 when the account's validation keeps changing under this call (it is being worked on). */
export function validationBusy(checkoutId: string): AppError {
  return new AppError("transfer_in_progress", `the bank account of checkout ${checkoutId} is being validated by another call; retry shortly`, { retryAfter: 1 });
}
