import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { BlockedBankAccountsPort } from "../returns/ports/blocked-bank-accounts.port.ts";

/** A checkout's bank account as the consumer portal shows it. */
export interface BankAccountView {
  institution: string | null;
  mask: string | null;
  /** A return blocked this account (docs/api-notes.md, Returns and blocked bank accounts): the consumer must link another one. */
  blocked: boolean;
}

/**
 * The bank account a checkout (or its subscription) draws on, from its payment method (as the
 * caller read it), and whether it is blocked: by the transfer provider's fingerprint of the
 * funding source the checkout's transfer attempt debits (`fingerprint`, absent before its first
 * debit made one; a re-link replaces it). Null when the checkout has no payment method.
 */
export async function bankAccountView(
  deps: { blocks: Pick<BlockedBankAccountsPort, "find"> },
  method: Pick<PaymentMethodRecord, "bankAccount"> | null,
  fingerprint: string | null | undefined,
): Promise<BankAccountView | null> {
  if (!method) return null;
  const block = await deps.blocks.find(fingerprint);
  return { institution: method.bankAccount?.institution ?? null, mask: method.bankAccount?.mask ?? null, blocked: block !== null };
}
