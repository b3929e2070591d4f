import { AppError } from "@payrail/contracts";
import { createHash } from "node:crypto";
import { bankAccountNotValidated, validationOf } from "../bank-accounts/account-validation.ts";
import { mandateEvent } from "./mandate-events.ts";
import type { MandateRecord } from "./mandate.entity.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";

export interface DebitMandateDeps extends PaymentEventsDeps {
  mandates: Pick<MandatesPort, "create" | "find" | "markDebit">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">;
}

/**
 * The merchant-attested mandate of a checkout whose consumer accepted no text: one per checkout,
 * so its id is derived from the checkout (racing or resumed debits find the same one).
 */
export function attestedMandateId(checkoutId: string): string {
  return `mdt_${createHash("sha256").update(`merchant_attested:${checkoutId}`).digest("hex").slice(0, 32)}`;
}

/** The mandate that authorizes debits of a checkout: the consumer's, else the merchant-attested one. */
export async function mandateIdOf(deps: Pick<DebitMandateDeps, "paymentMethods">, checkoutId: string): Promise<string> {
  const method = await deps.paymentMethods.findByCheckout(checkoutId);
  return method?.mandateId ?? attestedMandateId(checkoutId);
}

/**
 * Called under the debit's lease, right before the provider is asked to debit: the mandate must
 * be active, and records the debit (`last_debit_at`) in the same conditional write, so a
 * revocation either lands before (no debit: 409 `mandate_revoked`) or after this debit. A
 * consumer flow that sent a mandate whose record is missing: 409 `mandate_required`. A flow
 * without one (the seed's clients) gets its `merchant_attested` mandate here, at the first debit.
 * Beside the mandate, the account: one never validated (NACHA's WEB rule) is not debited, 409
 * `bank_account_not_validated`; the mandate records the validation with the debit.
 */
export async function requireDebitMandate(
  deps: DebitMandateDeps,
  /** `firstDebit`: the checkout's first charge, before which no attested mandate exists. */
  facts: { checkoutId: string; merchantId: string; userId: string; accountId: string; firstDebit?: boolean },
  at: string,
): Promise<MandateRecord> {
  const method = await deps.paymentMethods.findByCheckout(facts.checkoutId);
  // The debit draws on the account the transfer attempt copied when it started; a re-link that
  // raced it saved another account, whose mandate does not authorize this one (and revoked its).
  if (method && method.accountId !== facts.accountId) {
    throw new AppError("mandate_required", `the bank account of checkout ${facts.checkoutId} changed after its transfer began; no mandate covers the account being debited`, { param: "checkout_id" });
  }
  // Attempts are started from a saved method; without one (none is deleted today) the rule of
  // methods saved before validation was recorded applies: validated by the bank-data provider.
  const validation = method ? validationOf(method) : { method: "bank_data_provider" as const, validatedAt: at };
  if (!validation) throw bankAccountNotValidated(facts.checkoutId);
  const mandateId = method?.mandateId ?? attestedMandateId(facts.checkoutId);
  const createAttested = async (): Promise<MandateRecord | null> => {
    const attested: MandateRecord = {
      _id: mandateId,
      checkoutId: facts.checkoutId,
      merchantId: facts.merchantId,
      userId: facts.userId,
      type: "merchant_attested",
      status: "active",
      textVersion: null,
      textSha256: null,
      acceptedAt: at,
      ipAddress: null,
      userAgent: null,
      bankAccount: method?.bankAccount ?? { institution: null, mask: null },
      lastDebitAt: at,
      revokedAt: null,
      version: 1,
      validation,
    };
    if (!(await deps.mandates.create(attested, mandateEvent("mandate.created", attested, at, deps.livemode)))) return null;
    deps.events.written();
    return attested;
  };
  // A first debit without the consumer's mandate makes the attested one, which exists only from
  // then on: created first, one write where marking first would cost a write that misses. An
  // insert that finds it made (a resumed or racing debit) goes on to mark it, as a renewal does.
  if (!method?.mandateId && facts.firstDebit) {
    const created = await createAttested();
    if (created) return created;
  }
  for (let i = 0; i < 2; i++) {
    const marked = await deps.mandates.markDebit(mandateId, at, validation);
    if (marked) return marked;
    const existing = await deps.mandates.find(mandateId);
    if (existing?.status === "revoked") {
      throw new AppError("mandate_revoked", `the mandate ${mandateId} of checkout ${facts.checkoutId} was revoked; no debit may be made`, { param: "checkout_id" });
    }
    if (method?.mandateId) {
      throw new AppError("mandate_required", `checkout ${facts.checkoutId} has no recorded mandate for its bank account; the consumer must link it again`, { param: "checkout_id" });
    }
    const created = await createAttested();
    if (created) return created;
    // A racing debit created it first: mark it on the next round.
  }
  throw new AppError("transfer_in_progress", `the mandate of checkout ${facts.checkoutId} is being recorded by another call; retry shortly`, { retryAfter: 1 });
}
