import { AppError, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import type { SecretBox } from "@payrail/runtime";
import { toValidationState } from "./account-validation.ts";
import { fundAccount, microDepositsKey, type FundAccountDeps } from "../transfers/fund-account.ts";
import { accountInSlot, type AccountView, type ValidationSubject } from "./micro-deposits-account.ts";
import { ownLiveSubscription } from "../subscriptions/own-subscription.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import { switchSubscriptionAccount, underRelinkLease, type SwitchAccountDeps } from "./switch-subscription-account.ts";

export type PendingRelinkDeps = SwitchAccountDeps &
  FundAccountDeps & {
    transactions: Pick<TransactionsPort, "findByUuid">;
    paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "save" | "changeValidation">;
    secretBox: SecretBox;
  };

/**
 * The account the portal's micro-deposit operations act on, named by one of the consumer's own
 * subscription records (docs/decisions/0043-portal-micro-deposits.md): its pending change of
 * account when there is one, else the account it draws on (validated: a start is 409
 * `bank_account_already_validated`, a verify answers its state). Another consumer's, or for a
 * sandbox token another merchant's, is 404; a cancelled one 409 `subscription_cancelled`.
 */
export function pendingRelinkSubject(deps: PendingRelinkDeps, meta: RequestMeta, user: UserPrincipal, transactionUuid: string): ValidationSubject {
  return {
    read: async () => slotted(await subscriptionMethod(deps, user, transactionUuid)),
    settle: (account, byThisCall) => (account.slot === "pending" ? switchToPending(deps, meta, user, transactionUuid, account, byThisCall) : Promise.resolve(toValidationState(account))),
  };
}

async function subscriptionMethod(deps: PendingRelinkDeps, user: UserPrincipal, transactionUuid: string): Promise<PaymentMethodRecord> {
  const a = await ownLiveSubscription(deps, user, transactionUuid);
  const method = await deps.paymentMethods.findByCheckout(a._id);
  if (!method) throw new AppError("payment_method_missing", `checkout ${a._id} has no linked bank account yet`, { param: "checkout_id" });
  return method;
}

const slotted = (method: PaymentMethodRecord): AccountView => accountInSlot(method, method.pendingRelink ? "pending" : "current");

/**
 * The pending account is validated: the subscription switches to it under the new mandate
 * (switch-subscription-account.ts), its funding source asked for again under the key its
 * micro-deposits were sent with (the same one). A racing verify that switched it first, or a
 * re-link that replaced it, leaves nothing to do: where the account stands now. A switch that
 * meets a renewal being charged is 409 `transfer_in_progress`, and the next verify (any amounts)
 * or start of the portal page finishes it.
 */
async function switchToPending(
  deps: PendingRelinkDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  transactionUuid: string,
  validated: AccountView,
  byThisCall: boolean,
): Promise<BankAccountValidationState> {
  const found = await ownLiveSubscription(deps, user, transactionUuid);
  return underRelinkLease(deps, found._id, async (a, leaseId) => {
    const method = await subscriptionMethod(deps, user, transactionUuid);
    const pending = method.pendingRelink;
    if (!pending?.validation || pending.accountId !== validated.accountId) return toValidationState(slotted(method));
    const accessToken = deps.secretBox.open(pending.accessTokenSealed, a._id);
    const funded = await fundAccount(deps, {
      checkoutId: a._id,
      userId: a.userId,
      phone: a.userPhone,
      accessToken,
      accountId: pending.accountId,
      name: `Payrail subscription ${a._id}`,
      idempotencyKey: `${microDepositsKey(a._id, pending.accountId)}-funding-source`,
    });
    const switched = await switchSubscriptionAccount(deps, meta, user, a, leaseId, {
      itemId: pending.itemId,
      accountId: pending.accountId,
      accessTokenSealed: pending.accessTokenSealed,
      bankAccount: pending.bankAccount,
      processorTokenSealed: deps.secretBox.seal(funded.processorToken, a._id),
      customerUrl: funded.customerUrl,
      source: funded.source,
      mandate: { ...pending.mandate, validation: pending.validation },
      validation: pending.validation,
      microDeposits: pending.microDeposits,
    });
    deps.logger.info({ requestId: meta.requestId, checkoutId: a._id, resumed: !byThisCall }, "pending bank account validated by micro-deposits");
    return toValidationState(slotted(switched.method));
  });
}
