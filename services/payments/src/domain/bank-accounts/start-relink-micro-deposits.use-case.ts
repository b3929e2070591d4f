import type { BankAccountValidationState, UserPrincipal } from "@payrail/contracts";
import { validationOf } from "./account-validation.ts";
import { pendingRelinkSubject, type PendingRelinkDeps } from "./pending-relink-subject.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { sendMicroDeposits, type SendMicroDepositsDeps } from "./start-micro-deposits.use-case.ts";

/**
 * Start Re-link Micro-deposits (docs/decisions/0043-portal-micro-deposits.md): the same rounds
 * as a checkout's (start-micro-deposits.use-case.ts) to the account a subscription's consumer
 * chose and the bank could not validate: a pair still open answers as it is, an expired one is
 * replaced by a new pair, a locked account is 409 `micro_deposits_locked` (choose another). A
 * pending account validated already, whose switch met a renewal being charged, is switched now.
 */
export async function startRelinkMicroDeposits(
  deps: PendingRelinkDeps & SendMicroDepositsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { subscription_transaction_uuid: string },
): Promise<BankAccountValidationState> {
  const subject = pendingRelinkSubject(deps, meta, user, input.subscription_transaction_uuid);
  const account = await subject.read();
  if (account.slot === "pending" && validationOf(account)) return subject.settle(account, false);
  return sendMicroDeposits(deps, subject.read);
}
