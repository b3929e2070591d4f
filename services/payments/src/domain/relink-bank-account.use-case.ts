import { AppError, type UserPrincipal } from "@payrail/contracts";
import { randomUUID, sha256Hex, type Logger, type SecretBox } from "@payrail/runtime";
import { nextChargeAfterRelink, relinkMandateText, type RelinkTextDeps } from "./create-relink-token.use-case.ts";
import { ownLiveSubscription } from "./own-subscription.ts";
import { paymentMethodSavedEvent, type PaymentEventsDeps } from "./payment-events.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { BlockedBankAccountsPort } from "./ports/blocked-bank-accounts.port.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { TransferAttemptsPort } from "./ports/transfer-attempts.port.ts";
import type { TransferPort } from "./ports/transfer.port.ts";
import { buildConsumerMandate, checkTextVersion, storeMandate } from "./record-mandate.ts";
import { attestedMandateId } from "./require-debit-mandate.ts";
import { bankAccountNotValidated } from "./account-validation.ts";
import { revokeMandate } from "./revoke-mandate.ts";
import { subscriptionEvent } from "./subscription-events.ts";
import type { TransferAttemptRecord } from "./transfer-attempt.entity.ts";
import { bankAccountBlocked } from "./transfer-steps.ts";
import { periodDue } from "./upcoming-charge.ts";

export const BANK_ACCOUNT_CHANGED = "Bank account changed";
/** How long one re-link may hold the subscription (its provider calls) before another may take over. */
const RELINK_LEASE_MS = 30_000;
/** Saves of the payment method that lose to a racing first-link write read again; a few at most. */
const TRIES = 3;

export interface RelinkDeps extends RelinkTextDeps, PaymentEventsDeps {
  attempts: Pick<TransferAttemptsPort, "find" | "acquireRelinkLease" | "releaseRelinkLease" | "relink">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "save">;
  mandates: Pick<MandatesPort, "create" | "find" | "revoke">;
  blocks: Pick<BlockedBankAccountsPort, "find">;
  bankData: BankDataPort;
  transfers: Pick<TransferPort, "ensureCustomer" | "createFundingSource">;
  secretBox: SecretBox;
  logger: Logger;
}

/**
 * The consumer replaces the bank account their subscription draws on, one re-link at a time
 * (a lease on the subscription; renewals wait for it, a concurrent re-link gets 409
 * `transfer_in_progress` before its public token is spent):
 * 1. the public token is exchanged and the account's funding source made at the transfer
 *    provider, which fingerprints it; a blocked account: 409 `bank_account_blocked`;
 * 2. the new recurring mandate is stored (mandate.created);
 * 3. the subscription takes the account in one conditional write, and an `unpaid` one becomes
 *    `active` from its next period (subscription.reactivated), with no catch-up charge;
 * 4. the payment method follows (payment_method.saved), then the previous mandate is revoked.
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
): Promise<{ message: "Bank account changed"; mandate_id: string; status: "active" | "past_due" | "unpaid" }> {
  const found = await ownLiveSubscription(deps, user, input.subscription_transaction_uuid);
  checkTextVersion(input.mandate.text_version);
  const leaseId = randomUUID();
  const now = deps.now();
  const a = await deps.attempts.acquireRelinkLease(found._id, leaseId, now.toISOString(), new Date(now.getTime() + RELINK_LEASE_MS).toISOString());
  if (!a) throw new AppError("transfer_in_progress", `the bank account of subscription ${found._id} is being changed by another call; retry shortly`, { retryAfter: 1 });
  try {
    return await relinkUnderLease(deps, meta, user, input, a, leaseId);
  } finally {
    await deps.attempts.releaseRelinkLease(a._id, leaseId).catch((err: unknown) => {
      deps.logger.warn({ err, checkoutId: a._id }, "could not release the re-link lease; it will expire");
    });
  }
}

async function relinkUnderLease(
  deps: RelinkDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: Parameters<typeof relinkBankAccount>[3],
  a: TransferAttemptRecord,
  leaseId: string,
): Promise<{ message: "Bank account changed"; mandate_id: string; status: "active" | "past_due" | "unpaid" }> {
  const text = await relinkMandateText(deps, meta, a);
  const accountId = input.bankdata_account_id;
  const item = await deps.bankData.exchangePublicToken(input.public_token);
  const { validated, ...bankAccount } = await deps.bankData.describeAccount({ accessToken: item.accessToken, accountId });
  // A subscription's account is debited with no consumer at hand: it must be one the bank-data
  // provider validated (docs/decisions/0041-account-validation.md); micro-deposits are a checkout's.
  if (!validated) throw bankAccountNotValidated(a._id, "the bank could not validate the chosen account; choose another account");
  const { processorToken } = await deps.bankData.createProcessorToken({ accessToken: item.accessToken, accountId, processor: "dwolla" });
  const { customerUrl } = await deps.transfers.ensureCustomer({ userId: a.userId, phone: a.userPhone });
  const source = await deps.transfers.createFundingSource({
    customerUrl,
    processorToken,
    name: `Payrail subscription ${a._id}`,
    idempotencyKey: `${a._id}-relink-${sha256Hex(`${item.itemId}:${accountId}`).slice(0, 32)}`,
  });
  if (await deps.blocks.find(source.fingerprint)) throw bankAccountBlocked(a._id);

  const at = deps.now();
  const acceptance = { textVersion: input.mandate.text_version, ipAddress: input.client?.ip_address ?? null, userAgent: input.client?.user_agent ?? null };
  const validation = { method: "bank_data_provider" as const, validatedAt: at.toISOString() };
  const mandate = buildConsumerMandate(text.merchantName, text.checkout, user.userId, acceptance, bankAccount, at, text.firstDebitOn, validation);
  await storeMandate(deps, mandate);

  const next = nextChargeAfterRelink(a, at.toISOString());
  const reactivated = next.period !== null;
  const set: Partial<TransferAttemptRecord> = {
    accessTokenSealed: deps.secretBox.seal(item.accessToken, a._id),
    accountId,
    processorTokenSealed: deps.secretBox.seal(processorToken, a._id),
    customerUrl,
    fundingSourceUrl: source.fundingSourceUrl,
    fundingFingerprint: source.fingerprint,
    accountBlockedAt: null,
    ...(reactivated
      ? { subscriptionStatus: "active" as const, period: next.period!, periodTry: 0, ...periodDue(next.at), subscriptionVersion: (a.subscriptionVersion ?? 0) + 1 }
      : {}),
  };
  const after = { ...a, ...set };
  const events = reactivated ? [subscriptionEvent("subscription.reactivated", after, at.toISOString(), deps.livemode)] : [];
  if (!(await deps.attempts.relink(a._id, leaseId, a.subscriptionVersion, set, events))) {
    // Cancelled, renewed or charging meanwhile: nothing changed, and the new mandate authorizes nothing.
    await revokeMandate(deps, mandate._id, at.toISOString());
    throw new AppError("transfer_in_progress", `subscription ${a._id} changed while its account was being linked; retry shortly`, { retryAfter: 1 });
  }
  if (events.length > 0) deps.events.written();

  const replaced = await saveMethod(deps, a, user, {
    itemId: item.itemId,
    accountId,
    accessTokenSealed: set.accessTokenSealed!,
    bankAccount,
    mandateId: mandate._id,
    fingerprint: source.fingerprint,
    validation,
    microDeposits: null,
  });
  await revokeMandate(deps, replaced?.mandateId ?? attestedMandateId(a._id), at.toISOString());
  // A cancel that landed between the writes revoked the old mandate only: this one goes too.
  const now = await deps.attempts.find(a._id);
  if (now?.subscriptionCancelledAt) await revokeMandate(deps, mandate._id, deps.now().toISOString());
  deps.logger.info({ requestId: meta.requestId, checkoutId: a._id, reactivated }, "subscription bank account changed");
  return { message: BANK_ACCOUNT_CHANGED, mandate_id: mandate._id, status: after.subscriptionStatus === "past_due" ? "past_due" : after.subscriptionStatus === "unpaid" ? "unpaid" : "active" };
}

/** The checkout's payment method becomes the new account, with its payment_method.saved event; answers the one it replaced. */
async function saveMethod(
  deps: RelinkDeps,
  a: TransferAttemptRecord,
  user: UserPrincipal,
  account: Pick<PaymentMethodRecord, "itemId" | "accountId" | "accessTokenSealed" | "bankAccount" | "mandateId" | "fingerprint" | "validation" | "microDeposits">,
): Promise<PaymentMethodRecord | null> {
  const at = deps.now().toISOString();
  for (let i = 0; i < TRIES; i++) {
    const previous = await deps.paymentMethods.findByCheckout(a._id);
    const version = (previous?.version ?? 0) + 1;
    const method: PaymentMethodRecord = {
      _id: a._id,
      checkoutNumber: a.checkoutNumber,
      merchantId: a.merchantId,
      userId: user.userId,
      userPhone: user.phone,
      provider: deps.bankData.provider,
      ...account,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
      version,
      validationVersion: (previous?.validationVersion ?? 0) + 1,
    };
    if (await deps.paymentMethods.save(method, previous, paymentMethodSavedEvent(a._id, a.merchantId, user.userId, version, at, deps.livemode))) {
      deps.events.written();
      return previous;
    }
  }
  throw new AppError("transfer_in_progress", `the payment method of subscription ${a._id} is being saved by another call; retry shortly`, { retryAfter: 1 });
}
