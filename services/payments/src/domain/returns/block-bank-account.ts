import type { Logger } from "@payrail/runtime";
import { BLOCKING_RETURN_CODES, type BlockedBankAccountRecord } from "./blocked-bank-account.entity.ts";
import { paymentMethodBlockedEvent } from "./payment-method-blocked.event.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { BlockedBankAccountsPort } from "./ports/blocked-bank-accounts.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import { subscriptionEvent } from "../subscriptions/subscription-events.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { TransferAttemptRecord } from "../transfers/transfer-attempt.entity.ts";

/** Changes that lose to a concurrent one (a renewal settling, a cancel) read again; a few at most. */
const TRIES = 5;
/** Checkouts read per page while telling those on a blocked account. */
const PAGE = 100;

/** What blocking an account and telling its checkouts needs. */
export interface BlockingDeps extends PaymentEventsDeps {
  blocks: BlockedBankAccountsPort;
  attempts: Pick<TransferAttemptsPort, "find" | "onAccount" | "markAccountBlocked">;
  paymentMethods: Pick<PaymentMethodsPort, "findByCheckout">;
  logger: Logger;
  now(): Date;
}

/**
 * A debit's record became final: when it failed or came back with a blocking code (docs/api-notes.md, Returns and blocked bank accounts),
 * its bank account is blocked (the first block wins and is kept) and every checkout concerned
 * is told (tellCheckoutBlocked). Safe to repeat: a replayed notice finds both done.
 */
export async function blockAfterReturn(deps: BlockingDeps, tx: TransactionDoc): Promise<void> {
  if (tx.transaction_status !== "failed" && tx.transaction_status !== "returned") return;
  if (!tx.failure_code || !BLOCKING_RETURN_CODES.has(tx.failure_code)) return;
  const fingerprint = tx.sourceFingerprint ?? (await fingerprintOfLegacy(deps, tx));
  if (!fingerprint) {
    deps.logger.warn({ transactionUuid: tx._id, code: tx.failure_code }, "blocking return on an account without a fingerprint: nothing to block by");
    return;
  }
  const block = await deps.blocks.block({
    _id: fingerprint,
    failureCode: tx.failure_code,
    blockedAt: deps.now().toISOString(),
    transactionUuid: tx._id,
    checkoutId: tx.checkoutRef,
    merchantId: tx.merchantId,
  });
  deps.logger.info({ transactionUuid: tx._id, code: block.failureCode }, "bank account blocked");
  let after = "";
  for (;;) {
    const page = await deps.attempts.onAccount(fingerprint, after, PAGE);
    for (const a of page) await tellCheckoutBlocked(deps, a._id, block, tx.checkoutRef);
    if (page.length < PAGE) return;
    after = page.at(-1)!._id;
  }
}

/**
 * One checkout learns that its account is blocked, in one conditional write with its events:
 * a live subscription becomes `unpaid` (no renewal until another account is linked) with
 * subscription.unpaid, and payment_method.blocked goes to its merchant. Told are the checkout
 * whose debit came back (`returnedCheckoutId`) and every live subscription; a finished one-off
 * payment or an ended subscription of another merchant is not (nothing of theirs is debited).
 * Once per checkout and account; a no-op when it was told, re-linked or is not concerned.
 */
export async function tellCheckoutBlocked(deps: BlockingDeps, checkoutId: string, block: BlockedBankAccountRecord, returnedCheckoutId?: string): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    const a = await deps.attempts.find(checkoutId);
    if (!a || a.fundingFingerprint !== block._id || a.accountBlockedAt) return;
    const live = isLiveSubscription(a);
    if (!live && a._id !== returnedCheckoutId) return;
    const at = deps.now().toISOString();
    const set: Partial<TransferAttemptRecord> = live
      ? { accountBlockedAt: at, subscriptionStatus: "unpaid", nextChargeAt: null, subscriptionVersion: (a.subscriptionVersion ?? 0) + 1 }
      : { accountBlockedAt: at };
    const changed = { ...a, ...set };
    const method = await deps.paymentMethods.findByCheckout(a._id);
    const events = [paymentMethodBlockedEvent(changed, method, block, at, deps.livemode)];
    // The debit that came back is named on its own subscription's event only.
    if (live) events.push(subscriptionEvent("subscription.unpaid", changed, at, deps.livemode, a._id === block.checkoutId ? block.transactionUuid : undefined));
    if (await deps.attempts.markAccountBlocked(a._id, { fingerprint: block._id, subscriptionVersion: a.subscriptionVersion }, set, events)) {
      deps.events.written();
      return;
    }
  }
  throw new Error(`checkout ${checkoutId} kept changing; its blocked account is applied on the next notice`);
}

function isLiveSubscription(a: TransferAttemptRecord): boolean {
  return !!a.planType && (a.subscriptionStatus === "active" || a.subscriptionStatus === "past_due");
}

/** A record written before fingerprints were kept: the attempt's, when its funding source is the one debited. */
async function fingerprintOfLegacy(deps: BlockingDeps, tx: TransactionDoc): Promise<string | null> {
  const a = await deps.attempts.find(tx.checkoutRef);
  if (!a?.fundingFingerprint) return null;
  return !tx.sourceFundingSource || tx.sourceFundingSource === a.fundingSourceUrl ? a.fundingFingerprint : null;
}
