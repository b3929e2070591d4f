import type { DomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import { OUTBOX_INDEX, OutboxRelay, type Store } from "@payrail/store";
import { SANDBOX_TRANSFERS } from "./adapters/sandbox-transfers/sandbox-transfer.records.ts";
import { createBankData, type BankDataConfig } from "./adapters/create-bank-data.ts";
import { createTransfers, type TransferProvider, type TransfersConfig } from "./adapters/create-transfers.ts";
import { verifyDwollaSignature } from "./adapters/dwolla/dwolla-webhook.signature.ts";
import { parseDwollaTransferWebhook } from "./adapters/dwolla/dwolla-webhook.parse.ts";
import { IdentityServiceClient } from "./data-access/identity-service.client.ts";
import { TransactionRepository } from "./data-access/transaction.repository.ts";
import { TransferAttemptRepository } from "./data-access/transfer-attempt.repository.ts";
import { WebhookEventRepository } from "./data-access/webhook-event.repository.ts";
import { TransferNoticeRepository } from "./data-access/transfer-notice.repository.ts";
import { applyKeptNotices } from "./domain/transfers/apply-kept-notices.ts";
import { CheckoutServiceClient } from "./data-access/checkout-service.client.ts";
import { ClaimRepository } from "./data-access/claim.repository.ts";
import { PaymentMethodRepository } from "./data-access/payment-method.repository.ts";
import { RefundTransferRepository } from "./data-access/refund-transfer.repository.ts";
import type { BankDataPort } from "./domain/bank-accounts/ports/bank-data.port.ts";
import { SecretBox } from "@payrail/runtime";
import type { PaymentsDeps } from "./entry-points/rpc/deps.ts";
import { paymentsHandlers } from "./entry-points/rpc/handlers.ts";
import { startRenewalScheduler } from "./entry-points/scheduler/renewal.scheduler.ts";
import { startReconcileScheduler } from "./entry-points/scheduler/reconcile.scheduler.ts";
import { JobLeaseRepository } from "./data-access/job-lease.repository.ts";
import { ReturnWarningRepository } from "./data-access/return-warning.repository.ts";
import { MandateRepository } from "./data-access/mandate.repository.ts";
import { BlockedBankAccountRepository } from "./data-access/blocked-bank-account.repository.ts";
import { DayTotalsRepository } from "./data-access/day-totals.repository.ts";
import { backfillDayTotals } from "./domain/payment-stats/backfill-day-totals.use-case.ts";

/** How long one reconciler pass may hold its lease before another replica may run one. */
const RECONCILE_LEASE_MS = 10 * 60_000;
/** The day totals' one-time backfill (31 days of settled debits): ample, and a dead holder's lease runs out. */
const BACKFILL_LEASE_MS = 10 * 60_000;
import { SubscriptionScheduleRepository } from "./data-access/subscription-schedule.repository.ts";
import { ReviewRepository } from "./data-access/review.repository.ts";
import { PayoutTransferRepository } from "./data-access/payout-transfer.repository.ts";
import { AmountStatsRepository } from "./data-access/amount-stats.repository.ts";
import { ComplianceRecordsRepository } from "./data-access/compliance-records.repository.ts";
import { ruleSet, type FraudThresholds } from "./domain/fraud/fraud-rules.ts";
import { startReviewSweepScheduler } from "./entry-points/scheduler/review-sweep.scheduler.ts";
import { createIndexes, OUTBOX_COLLECTIONS } from "./indexes.ts";

export type { BankDataPort } from "./domain/bank-accounts/ports/bank-data.port.ts";
export { returnRateStats } from "./domain/returns/return-rate-stats.ts";

/** Renewals (docs/api-notes.md, Subscriptions and renewals): retries, the end of an unpaid subscription, the scheduler's pace (0: off). */
export interface RenewalConfig {
  RENEWAL_RETRY_DAYS: number[];
  RENEWAL_FINAL_STATUS: "cancelled" | "unpaid";
  RENEWAL_POLL_MS: number;
  /** Days before an unchanged renewal the consumer is told of it (a changed amount: 10). */
  NOTICE_DAYS_BEFORE: number;
}

/** The reconciler (docs/api-notes.md, Convergence with the provider): what counts as stale, and how often a pass is tried (0: never). */
export interface ReconcileConfig {
  RECONCILE_AFTER: number;
  RECONCILE_EVERY: number;
}

/** Fraud monitoring (docs/decisions/0010-fraud-monitoring.md): the rules' thresholds, a review's time, the sweep's pace (0: never). */
export type FraudMonitoringConfig = FraudThresholds & { REVIEW_EXPIRES_HOURS: number; REVIEW_SWEEP_EVERY: number };
export type { BankDataConfig } from "./adapters/create-bank-data.ts";
export { createTransfers, type TransferProvider, type TransfersConfig } from "./adapters/create-transfers.ts";
export { TransferRefused, type TransferPort } from "./domain/transfers/ports/transfer.port.ts";

export interface PaymentsServiceDeps {
  /**
   * Sequence values reserved per counter write (default 1). The launcher sets more only when
   * this process is the store's one writer (the embedded store): see the repository.
   */
  sequenceBlock?: number;
  transport: Transport;
  store: Store;
  logger: Logger;
  /** The 32-byte key that seals provider access tokens at rest (SECRETS_KEY, see bin/secrets-key.ts). */
  secretsKey: Buffer;
  /** Which providers to use (PROVIDERS) and their settings. */
  providers: BankDataConfig &
    TransfersConfig & { DWOLLA_WEBHOOK_SECRET?: string | undefined; TRANSFER_LEASE_MS: number } & Partial<RenewalConfig> & Partial<ReconcileConfig> & FraudMonitoringConfig;
  /** Replaces the provider chosen by `providers` (tests). */
  bankData?: BankDataPort;
  /** How often the outbox relay looks for events it was not told about. Default 1 s. */
  outboxPollMs?: number;
  /** Replaces the clock (tests move time past a lease). */
  now?: () => Date;
  /** Replaces the transfer provider (and its simulator) chosen by `providers`. */
  transfers?: TransferProvider;
}

/**
 * Composition root of the payments service: indexes, then the outbox relay (it declares its own
 * index) for the events its transaction records, payment methods and transfer attempts carry
 * (transaction.*, subscription.* and the internal payment_method.saved and
 * refund_payout.settled), then the queue, then the renewal scheduler (RENEWAL_POLL_MS).
 */
export async function start(deps: PaymentsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const secretBox = new SecretBox(deps.secretsKey);
  const bankData = deps.bankData ?? (await createBankData(deps.providers, deps.store, deps.logger));
  const { transfers, simulator } = deps.transfers ?? (await createTransfers(deps.providers, deps.store, deps.logger, deps.now));
  const transactions = new TransactionRepository(deps.store, deps.sequenceBlock);
  await createIndexes(deps.store);
  if (simulator) await deps.store.collection(SANDBOX_TRANSFERS).createIndex(OUTBOX_INDEX);
  const refundTransfers = new RefundTransferRepository(deps.store);
  const payoutTransfers = new PayoutTransferRepository(deps.store);
  const attempts = new TransferAttemptRepository(deps.store);
  const schedules = new SubscriptionScheduleRepository(deps.store);
  const notices = new TransferNoticeRepository(deps.store);
  const mandates = new MandateRepository(deps.store);
  const dayTotals = new DayTotalsRepository(deps.store);
  const paymentMethods = new PaymentMethodRepository(deps.store);
  const reviews = new ReviewRepository(deps.store);
  const amountStats = new AmountStatsRepository(deps.store);
  const compliance = new ComplianceRecordsRepository(deps.store);
  const fraud: FraudThresholds = deps.providers;
  // The rule set in force from this start on (recorded once per change of versions or thresholds): the evidence's history.
  await compliance.recordRuleSet({ reviewExpiresHours: deps.providers.REVIEW_EXPIRES_HOURS, rules: ruleSet(fraud) }, new Date().toISOString());
  const relay = new OutboxRelay({
    store: deps.store,
    // The sandbox's transfers carry the audit entries of the merchants' simulations.
    collections: simulator ? [...OUTBOX_COLLECTIONS, SANDBOX_TRANSFERS] : OUTBOX_COLLECTIONS,
    // The outbox only stores what the use cases wrote, which are DomainEvents; publish checks
    // each against its type's schema again anyway.
    publish: (event) => deps.transport.publish(event as DomainEvent),
    logger: deps.logger,
    ...(deps.outboxPollMs !== undefined ? { pollMs: deps.outboxPollMs } : {}),
  });
  await relay.start();
  const handlerDeps: PaymentsDeps = {
    checkouts: new CheckoutServiceClient(deps.transport),
    merchants: new IdentityServiceClient(deps.transport),
    claims: new ClaimRepository(deps.store),
    paymentMethods,
    reviews,
    reviewExpiresMs: deps.providers.REVIEW_EXPIRES_HOURS * 3_600_000,
    amountStats,
    compliance,
    fraud,
    mandates,
    blocks: new BlockedBankAccountRepository(deps.store),
    attempts,
    schedules,
    upcomingNotice: { daysBefore: deps.providers.NOTICE_DAYS_BEFORE ?? 3 },
    renewalPolicy: { retryDays: deps.providers.RENEWAL_RETRY_DAYS ?? [3, 5], finalStatus: deps.providers.RENEWAL_FINAL_STATUS ?? "cancelled" },
    transactions,
    dayTotals,
    refundTransfers,
    payoutTransfers,
    webhookEvents: new WebhookEventRepository(deps.store),
    notices,
    returnWarnings: new ReturnWarningRepository(deps.store),
    jobs: new JobLeaseRepository(deps.store),
    reconcileAfterMs: deps.providers.RECONCILE_AFTER ?? 3_600_000,
    reconcileLeaseMs: RECONCILE_LEASE_MS,
    transferRecorded: (requestId, transferId) => applyKeptNotices(handlerDeps, requestId, transferId),
    bankData,
    transfers,
    ...(simulator ? { simulator } : {}),
    secretBox,
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
    leaseMs: deps.providers.TRANSFER_LEASE_MS,
    sandbox: deps.providers.PROVIDERS === "sandbox",
    livemode: deps.providers.PROVIDERS === "live",
    events: { written: () => relay.notify() },
    webhookSecret: deps.providers.DWOLLA_WEBHOOK_SECRET,
    verifyWebhook: verifyDwollaSignature,
    parseWebhook: parseDwollaTransferWebhook,
    ping: () => deps.store.ping(),
  };
  await deps.transport.serve("payments", paymentsHandlers(handlerDeps));
  const pollMs = deps.providers.RENEWAL_POLL_MS ?? 30_000;
  const scheduler = pollMs > 0 ? startRenewalScheduler(handlerDeps, pollMs) : null;
  const reconcileEvery = deps.providers.RECONCILE_EVERY ?? 15 * 60_000;
  const reconciler = reconcileEvery > 0 ? startReconcileScheduler(handlerDeps, reconcileEvery) : null;
  const sweepEvery = deps.providers.REVIEW_SWEEP_EVERY;
  const reviewSweep = sweepEvery > 0 ? startReviewSweepScheduler(handlerDeps, sweepEvery) : null;
  // In the background: the service answers meanwhile (the overview counts what is counted so far).
  const backfill = backfillDayTotals({ ...handlerDeps, backfillLeaseMs: BACKFILL_LEASE_MS }).catch((err: unknown) =>
    deps.logger.error({ err }, "day totals backfill failed; the next start runs it again"),
  );
  deps.logger.info({ bankData: bankData.provider, transfers: transfers.provider }, "payments service started");
  return {
    name: "payments",
    async stop() {
      await scheduler?.stop();
      await reconciler?.stop();
      await reviewSweep?.stop();
      await backfill;
      await relay.stop();
    },
  };
}

export { createIndexes } from "./indexes.ts";
