import { AppError, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import { sha256Hex, type SecretBox } from "@payrail/runtime";
import { bankAccountEvent } from "./bank-account-events.ts";
import { relinkMandateText, type RelinkTextDeps } from "./create-relink-token.use-case.ts";
import { fundAccount, microDepositsKey, type FundAccountDeps } from "../transfers/fund-account.ts";
import { RELINK_MANDATE_TEXT_VERSION } from "../mandates/mandate-text.ts";
import { accountInSlot, VALIDATION_TRIES, validationBusy } from "./micro-deposits-account.ts";
import { ownLiveSubscription } from "../subscriptions/own-subscription.ts";
import type { MandateRecord } from "../mandates/mandate.entity.ts";
import type { PendingRelinkRecord } from "./payment-method.entity.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import { buildConsumerMandate, checkTextVersion } from "../mandates/record-mandate.ts";
import { sendMicroDeposits, type SendMicroDepositsDeps } from "./start-micro-deposits.use-case.ts";
import { switchSubscriptionAccount, underRelinkLease, type SwitchAccountDeps } from "./switch-subscription-account.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

export const BANK_ACCOUNT_CHANGED = "Bank account changed";
export const BANK_ACCOUNT_CHANGE_PENDING = "Bank account change pending";

export type RelinkDeps = RelinkTextDeps &
  SwitchAccountDeps &
  FundAccountDeps &
  SendMicroDepositsDeps & {
    paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "save" | "changeValidation" | "setPendingRelink">;
    bankData: BankDataPort;
    secretBox: SecretBox;
  };

type RelinkAnswer =
  | { message: typeof BANK_ACCOUNT_CHANGED; mandate_id: string; status: "active" | "past_due" | "unpaid" }
  | { message: typeof BANK_ACCOUNT_CHANGE_PENDING; mandate_id: string; status: "active" | "past_due" | "unpaid"; validation: BankAccountValidationState };

/**
 * The consumer replaces the bank account their subscription draws on, one re-link at a time
 * (a lease on the subscription; renewals wait for it, a concurrent re-link gets 409
 * `transfer_in_progress` before its public token is spent). The public token is exchanged and
 * the account described by the bank-data provider; the mandate's words are the change of
 * account's own (RELINK_MANDATE_TEXT_VERSION). Then:
 * - an account the bank-data provider validated is made a funding source (blocked: 409
 *   `bank_account_blocked`) and the subscription switches to it at once (switch-subscription-account.ts);
 * - one it could not validate is kept pending and micro-deposits are sent to it
 *   (docs/decisions/0043-portal-micro-deposits.md): the subscription keeps drawing on its current
 *   account until the consumer enters the two amounts (Verify Re-link Micro-deposits).
 */
export async function relinkBankAccount(
  deps: RelinkDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: {
    subscription_transaction_uuid: string;
    public_token: string;
    bankdata_account_id: string;
    mandate: { text_version: string };
    client?: { ip_address: string; user_agent: string } | undefined;
  },
): Promise<RelinkAnswer> {
  const found = await ownLiveSubscription(deps, user, input.subscription_transaction_uuid);
  checkTextVersion(input.mandate.text_version, RELINK_MANDATE_TEXT_VERSION);
  return underRelinkLease(deps, found._id, (a, leaseId) => relinkUnderLease(deps, meta, user, input, a, leaseId));
}

async function relinkUnderLease(
  deps: RelinkDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: Parameters<typeof relinkBankAccount>[3],
  a: TransferAttemptRecord,
  leaseId: string,
): Promise<RelinkAnswer> {
  const text = await relinkMandateText(deps, meta, a);
  const accountId = input.bankdata_account_id;
  const item = await deps.bankData.exchangePublicToken(input.public_token);
  const { validated, ...bankAccount } = await deps.bankData.describeAccount({ accessToken: item.accessToken, accountId });
  const chosen = { itemId: item.itemId, accountId, accessToken: item.accessToken, bankAccount };
  // A subscription's account is debited with no consumer at hand: one the bank could not validate
  // is drawn on only once micro-deposits validate it.
  const idempotencyKey = validated ? `${a._id}-relink-${sha256Hex(`${item.itemId}:${accountId}`).slice(0, 32)}` : `${microDepositsKey(a._id, accountId)}-funding-source`;
  const funded = await fundAccount(deps, { checkoutId: a._id, userId: a.userId, phone: a.userPhone, accessToken: item.accessToken, accountId, name: `Payrail subscription ${a._id}`, idempotencyKey });

  const at = deps.now();
  const acceptance = { textVersion: input.mandate.text_version, ipAddress: input.client?.ip_address ?? null, userAgent: input.client?.user_agent ?? null };
  const validation = validated ? { method: "bank_data_provider" as const, validatedAt: at.toISOString() } : null;
  const mandate = buildConsumerMandate(text.merchantName, text.checkout, user.userId, acceptance, bankAccount, at, text.firstDebitOn, validation);
  if (!validation) return keepPending(deps, a, chosen, mandate, at);

  const switched = await switchSubscriptionAccount(deps, meta, user, a, leaseId, {
    ...chosen,
    accessTokenSealed: deps.secretBox.seal(item.accessToken, a._id),
    processorTokenSealed: deps.secretBox.seal(funded.processorToken, a._id),
    customerUrl: funded.customerUrl,
    source: funded.source,
    mandate,
    validation,
    microDeposits: null,
  });
  return { message: BANK_ACCOUNT_CHANGED, mandate_id: mandate._id, status: switched.status };
}

/**
 * The change kept pending on the chosen account, replacing any earlier pending one, in one
 * conditional write with bank_account.validation_required (`pending_change: true`), then the
 * micro-deposits' first round. The mandate is kept with it, stored when the account is switched.
 */
async function keepPending(
  deps: RelinkDeps,
  a: TransferAttemptRecord,
  chosen: { itemId: string; accountId: string; accessToken: string; bankAccount: PendingRelinkRecord["bankAccount"] },
  mandate: MandateRecord,
  at: Date,
): Promise<RelinkAnswer> {
  const pending: PendingRelinkRecord = {
    itemId: chosen.itemId,
    accountId: chosen.accountId,
    accessTokenSealed: deps.secretBox.seal(chosen.accessToken, a._id),
    bankAccount: chosen.bankAccount,
    mandate,
    chosenAt: at.toISOString(),
    validation: null,
    microDeposits: null,
  };
  const read = async () => {
    const method = await deps.paymentMethods.findByCheckout(a._id);
    if (!method) throw new AppError("payment_method_missing", `checkout ${a._id} has no linked bank account yet`, { param: "checkout_id" });
    return method;
  };
  let recorded = false;
  for (let i = 0; i < VALIDATION_TRIES && !recorded; i++) {
    const method = await read();
    const after = accountInSlot({ ...method, pendingRelink: pending, validationVersion: (method.validationVersion ?? 0) + 1 }, "pending");
    const event = bankAccountEvent("bank_account.validation_required", after, at.toISOString(), deps.livemode);
    recorded = (await deps.paymentMethods.setPendingRelink(a._id, method.validationVersion, pending, [event])) !== null;
  }
  if (!recorded) throw validationBusy(a._id);
  deps.events.written();
  const validation = await sendMicroDeposits(deps, async () => accountInSlot(await read(), "pending"));
  const status = a.subscriptionStatus === "past_due" || a.subscriptionStatus === "unpaid" ? a.subscriptionStatus : "active";
  return { message: BANK_ACCOUNT_CHANGE_PENDING, mandate_id: mandate._id, status, validation };
}
