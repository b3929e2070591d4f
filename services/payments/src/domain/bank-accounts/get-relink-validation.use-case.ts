import type { BankAccountValidationState, UserPrincipal } from "@payrail/contracts";
import { toValidationState } from "./account-validation.ts";
import { pendingRelinkSubject, type PendingRelinkDeps } from "./pending-relink-subject.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";

/**
 * Where a subscription's change of account stands, for the portal's page: its pending account
 * (`pending_change: true`) or, with none pending, the account it draws on. Reads only.
 */
export async function getRelinkValidation(deps: PendingRelinkDeps, meta: RequestMeta, user: UserPrincipal, input: { subscription_transaction_uuid: string }): Promise<BankAccountValidationState> {
  return toValidationState(await pendingRelinkSubject(deps, meta, user, input.subscription_transaction_uuid).read());
}
