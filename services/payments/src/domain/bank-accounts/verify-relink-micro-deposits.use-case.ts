import type { BankAccountValidationState, UserPrincipal } from "@payrail/contracts";
import { pendingRelinkSubject, type PendingRelinkDeps } from "./pending-relink-subject.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { checkMicroDeposits, type VerifyMicroDepositsDeps } from "./verify-micro-deposits.use-case.ts";

/**
 * Verify Re-link Micro-deposits (docs/decisions/0043-portal-micro-deposits.md): the two amounts
 * checked as a checkout's are (verify-micro-deposits.use-case.ts: one try counted per wrong
 * pair, the third locks, 10 days); the right pair validates the pending account once
 * (bank_account.validated) and the subscription switches to it under the new mandate.
 */
export function verifyRelinkMicroDeposits(
  deps: PendingRelinkDeps & Omit<VerifyMicroDepositsDeps, "checkouts" | "mandates">,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { subscription_transaction_uuid: string; amounts: readonly [string, string] },
): Promise<BankAccountValidationState> {
  return checkMicroDeposits(deps, input.amounts, pendingRelinkSubject(deps, meta, user, input.subscription_transaction_uuid));
}
