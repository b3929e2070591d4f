import { AppError, type UserPrincipal } from "@payrail/contracts";
import { randomUUID, type Logger } from "@payrail/runtime";
import type { AccountValidationRecord, MicroDepositsRecord } from "./account-validation.ts";
import { nextChargeAfterRelink } from "./create-relink-token.use-case.ts";
import type { MandateRecord } from "../mandates/mandate.entity.ts";
import { paymentMethodSavedEvent, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import type { FundingSource } from "../transfers/ports/transfer.port.ts";
import { storeMandate } from "../mandates/record-mandate.ts";
import { attestedMandateId } from "../mandates/require-debit-mandate.ts";
import { revokeMandate } from "../mandates/revoke-mandate.ts";
import { subscriptionEvent } from "../subscriptions/subscription-events.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";
import { periodDue } from "../renewals/upcoming-charge.ts";

/** How long one re-link may hold the subscription (its provider calls) before another may take over. */
const RELINK_LEASE_MS = 30_000;
/** Saves of the payment method that lose to a racing first-link write read again; a few at most. */
const TRIES = 3;

export interface SwitchAccountDeps extends PaymentEventsDeps {
  attempts: Pick<TransferAttemptsPort, "find" | "acquireRelinkLease" | "releaseRelinkLease" | "relink">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout" | "save">;
  mandates: Pick<MandatesPort, "create" | "find" | "revoke">;
  bankData: Pick<BankDataPort, "provider">;
  logger: Logger;
  now(): Date;
}

/**
 * Runs `work` holding the subscription's re-link lease: one change of its account at a time
 * (renewals wait for it); another call meanwhile gets 409 `transfer_in_progress`.
 */
export async function underRelinkLease<T>(deps: SwitchAccountDeps, checkoutId: string, work: (a: TransferAttemptRecord, leaseId: string) => Promise<T>): Promise<T> {
  const leaseId = randomUUID();
  const now = deps.now();
  const a = await deps.attempts.acquireRelinkLease(checkoutId, leaseId, now.toISOString(), new Date(now.getTime() + RELINK_LEASE_MS).toISOString());
  if (!a) throw new AppError("transfer_in_progress", `the bank account of subscription ${checkoutId} is being changed by another call; retry shortly`, { retryAfter: 1 });
  try {
    return await work(a, leaseId);
  } finally {
    await deps.attempts.releaseRelinkLease(a._id, leaseId).catch((err: unknown) => {
      deps.logger.warn({ err, checkoutId: a._id }, "could not release the re-link lease; it will expire");
    });
  }
}

/** The validated account the subscription is to draw on, made a funding source, with the mandate the consumer accepted for it. */
export interface SwitchedAccount {
  itemId: string;
  accountId: string;
  accessTokenSealed: string;
  bankAccount: { institution: string | null; mask: string | null };
  processorTokenSealed: string;
  customerUrl: string;
  source: FundingSource;
  mandate: MandateRecord;
  validation: AccountValidationRecord;
  microDeposits: MicroDepositsRecord | null;
}

/**
 * Under the re-link lease, the subscription takes the account (docs/decisions/0043-portal-micro-deposits.md):
 * 1. the subscription's account, in one conditional write; an `unpaid` one becomes `active`
 *    from its next period (subscription.reactivated), with no catch-up charge. A renewal being
 *    charged, a cancel or a change of amount meanwhile: nothing written, 409 `transfer_in_progress`;
 * 2. the new mandate (mandate.created), stored only once the subscription draws on its account;
 * 3. the payment method follows (payment_method.saved; a pending change is done with), then the
 *    previous mandate is revoked.
 * Each step can run again: a call resumed after a crash between them finishes the switch.
 */
export async function switchSubscriptionAccount(
  deps: SwitchAccountDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  a: TransferAttemptRecord,
  leaseId: string,
  account: SwitchedAccount,
): Promise<{ status: "active" | "past_due" | "unpaid"; method: PaymentMethodRecord }> {
  const at = deps.now().toISOString();
  const next = nextChargeAfterRelink(a, at);
  const reactivated = next.period !== null;
  const set: Partial<TransferAttemptRecord> = {
    accessTokenSealed: account.accessTokenSealed,
    accountId: account.accountId,
    processorTokenSealed: account.processorTokenSealed,
    customerUrl: account.customerUrl,
    fundingSourceUrl: account.source.fundingSourceUrl,
    fundingFingerprint: account.source.fingerprint,
    accountBlockedAt: null,
    ...(reactivated
      ? { subscriptionStatus: "active" as const, period: next.period!, periodTry: 0, ...periodDue(next.at), subscriptionVersion: (a.subscriptionVersion ?? 0) + 1 }
      : {}),
  };
  const after = { ...a, ...set };
  const events = reactivated ? [subscriptionEvent("subscription.reactivated", after, at, deps.livemode)] : [];
  if (!(await deps.attempts.relink(a._id, leaseId, a.subscriptionVersion, set, events))) {
    throw new AppError("transfer_in_progress", `subscription ${a._id} changed while its account was being linked; retry shortly`, { retryAfter: 1 });
  }
  if (events.length > 0) deps.events.written();
  // A resumed switch finds its mandate stored already.
  await storeMandate(deps, account.mandate);

  const { previous, saved } = await saveMethod(deps, a, user, {
    itemId: account.itemId,
    accountId: account.accountId,
    accessTokenSealed: account.accessTokenSealed,
    bankAccount: account.bankAccount,
    mandateId: account.mandate._id,
    fingerprint: account.source.fingerprint,
    validation: account.validation,
    microDeposits: account.microDeposits,
    pendingRelink: null,
  });
  await revokeMandate(deps, previous?.mandateId ?? attestedMandateId(a._id), deps.now().toISOString());
  // A cancel that landed between the writes revoked the old mandate only: this one goes too.
  const now = await deps.attempts.find(a._id);
  if (now?.subscriptionCancelledAt) await revokeMandate(deps, account.mandate._id, deps.now().toISOString());
  deps.logger.info({ requestId: meta.requestId, checkoutId: a._id, reactivated }, "subscription bank account changed");
  return { status: after.subscriptionStatus === "past_due" ? "past_due" : after.subscriptionStatus === "unpaid" ? "unpaid" : "active", method: saved };
}

/** The checkout's payment method becomes the new account, with its payment_method.saved event; answers the one it replaced and the one saved. */
async function saveMethod(
  deps: SwitchAccountDeps,
  a: TransferAttemptRecord,
  user: UserPrincipal,
  account: Pick<PaymentMethodRecord, "itemId" | "accountId" | "accessTokenSealed" | "bankAccount" | "mandateId" | "fingerprint" | "validation" | "microDeposits" | "pendingRelink">,
): Promise<{ previous: PaymentMethodRecord | null; saved: PaymentMethodRecord }> {
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
      return { previous, saved: method };
    }
  }
  throw new AppError("transfer_in_progress", `the payment method of subscription ${a._id} is being saved by another call; retry shortly`, { retryAfter: 1 });
}
