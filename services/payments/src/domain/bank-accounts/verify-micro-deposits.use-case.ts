import { AppError, toCents, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import { MICRO_DEPOSIT_TRIES, microDepositsExpired, toValidationState, validationOf, type MicroDepositsRecord } from "./account-validation.ts";
import { bankAccountEvent } from "./bank-account-events.ts";
import {
  changeAccountValidation,
  consumerAccount,
  VALIDATION_TRIES,
  validationBusy,
  type AccountView,
  type MicroDepositsAccountDeps,
  type ValidationSubject,
} from "./micro-deposits-account.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { TransferPort } from "../transfers/ports/transfer.port.ts";
import { microDepositsLocked } from "./start-micro-deposits.use-case.ts";

export interface VerifyMicroDepositsDeps extends MicroDepositsAccountDeps, PaymentEventsDeps {
  transfers: Pick<TransferPort, "verifyMicroDeposits">;
  mandates: Pick<MandatesPort, "recordValidation">;
  now(): Date;
}

/**
 * Verify Micro-deposits (docs/decisions/0041-account-validation.md) of the account linked to
 * the consumer's checkout; validated, the mandate accepted with the account shows it too (a
 * debit would copy it there anyway).
 */
export function verifyMicroDeposits(
  deps: VerifyMicroDepositsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id?: string | undefined; link_token: string; amounts: readonly [string, string] },
): Promise<BankAccountValidationState> {
  return checkMicroDeposits(deps, input.amounts, {
    read: () => consumerAccount(deps, meta, user, input),
    settle: async (account, byThisCall) => {
      if (byThisCall && account.mandateId && account.validation) await deps.mandates.recordValidation(account.mandateId, account.validation);
      return toValidationState(account);
    },
  });
}

/**
 * The two amounts, in any order, checked by the transfer provider against the pair it sent to
 * the subject's account, then the outcome in one conditional write on the version read, so of
 * racing calls one decides and the others read its outcome again: the right pair validates the
 * account once (bank_account.validated), a wrong one counts a try (400 with the tries left),
 * the third wrong one locks the account (409). Validated already: what follows a validation
 * (`settle`: resumed, should the call that validated have stopped before it), whatever the amounts.
 */
export async function checkMicroDeposits(
  deps: Omit<VerifyMicroDepositsDeps, "checkouts" | "mandates">,
  amounts: readonly [string, string],
  subject: ValidationSubject,
): Promise<BankAccountValidationState> {
  const amountsCents = [toCents(amounts[0]) ?? 0, toCents(amounts[1]) ?? 0] as const;
  let account = await subject.read();
  // The provider's answer for a round, asked once: a call that loses the write to a racing one
  // reads the account again but must not count another try at the provider (Dwolla counts them).
  let asked = null as { reference: string; answer: "verified" | "wrong" } | null;
  for (let i = 0; i < VALIDATION_TRIES; i++) {
    if (validationOf(account)) return subject.settle(account, false);
    const md = account.microDeposits ?? null;
    if (md?.status === "locked") throw microDepositsLocked(account._id);
    if (md?.status !== "sent" || !md.fundingSourceUrl || !md.reference) {
      throw new AppError("micro_deposits_not_started", `no micro-deposits were sent to the bank account of checkout ${account._id} yet; start them first`, { param: "checkout_id" });
    }
    if (microDepositsExpired(md, deps.now())) {
      throw new AppError("micro_deposits_expired", `the micro-deposits to the bank account of checkout ${account._id} expired on ${md.expiresAt}; start again for a new pair`, {
        param: "checkout_id",
      });
    }
    if (asked?.reference !== md.reference) {
      const answer = await deps.transfers.verifyMicroDeposits({ fundingSourceUrl: md.fundingSourceUrl, reference: md.reference, amountsCents });
      asked = { reference: md.reference, answer };
    }
    if (asked.answer === "verified") {
      const saved = await validated(deps, account, md);
      if (saved) return subject.settle(saved, true);
    } else {
      await wrongTry(deps, account, md);
    }
    account = await subject.read();
  }
  throw validationBusy(account._id);
}

async function validated(deps: Pick<VerifyMicroDepositsDeps, "paymentMethods" | "events" | "livemode" | "now">, account: AccountView, md: MicroDepositsRecord): Promise<AccountView | null> {
  const at = deps.now().toISOString();
  const validation = { method: "micro_deposits" as const, validatedAt: at };
  const microDeposits = { ...md, status: "validated" as const };
  const after = { ...account, validation, microDeposits, validationVersion: (account.validationVersion ?? 0) + 1 };
  const saved = await changeAccountValidation(deps, account, { validation, microDeposits }, [bankAccountEvent("bank_account.validated", after, at, deps.livemode)]);
  if (saved) deps.events.written();
  return saved;
}

/** Returns when another call changed the account first (the loop reads it again); else throws the wrong pair's answer. */
async function wrongTry(deps: Pick<VerifyMicroDepositsDeps, "paymentMethods" | "events" | "livemode" | "now">, account: AccountView, md: MicroDepositsRecord): Promise<void> {
  const at = deps.now().toISOString();
  const failedTries = md.failedTries + 1;
  const locked = failedTries >= MICRO_DEPOSIT_TRIES;
  const microDeposits: MicroDepositsRecord = { ...md, failedTries, status: locked ? "locked" : "sent" };
  const after = { ...account, microDeposits, validationVersion: (account.validationVersion ?? 0) + 1 };
  // Locked: the merchant learns that this account will never be debited (status `locked`).
  const events = locked ? [bankAccountEvent("bank_account.validation_required", after, at, deps.livemode)] : [];
  const saved = await changeAccountValidation(deps, account, { microDeposits }, events);
  if (!saved) return;
  if (events.length > 0) deps.events.written();
  if (locked) throw microDepositsLocked(account._id);
  const left = MICRO_DEPOSIT_TRIES - failedTries;
  throw new AppError("micro_deposit_amounts_mismatch", `the amounts are not the two deposits sent; ${left} ${left === 1 ? "try" : "tries"} left`, { param: "amounts" });
}
