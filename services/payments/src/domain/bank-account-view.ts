import type { BlockedBankAccountsPort } from "./ports/blocked-bank-accounts.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";

/** A checkout's bank account as the consumer portal shows it. */
export interface BankAccountView {
  institution: string | null;
  mask: string | null;
  /** A return blocked this account (API.md §12): the consumer must link another one. */
  blocked: boolean;
}

/**
 * The bank account a checkout (or its subscription) draws on, and whether it is blocked: by the
 * transfer provider's fingerprint, known once the account's funding source exists (the first
 * debit, or a re-link). Null when the checkout has no payment method.
 */
export async function bankAccountView(
  deps: { paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">; blocks: Pick<BlockedBankAccountsPort, "find"> },
  checkoutId: string,
): Promise<BankAccountView | null> {
  const method = await deps.paymentMethods.findByCheckout(checkoutId);
  if (!method) return null;
  const block = await deps.blocks.find(method.fingerprint);
  return { institution: method.bankAccount?.institution ?? null, mask: method.bankAccount?.mask ?? null, blocked: block !== null };
}
