import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { TRANSACTIONS_COLLECTION, TransactionRepository } from "./data-access/transaction.repository.ts";
import { RefundTransferRepository } from "./data-access/refund-transfer.repository.ts";
import { TRANSFER_ATTEMPTS_COLLECTION, TransferAttemptRepository } from "./data-access/transfer-attempt.repository.ts";
import { SubscriptionScheduleRepository } from "./data-access/subscription-schedule.repository.ts";
import { TransferNoticeRepository } from "./data-access/transfer-notice.repository.ts";
import { MANDATES_COLLECTION, MandateRepository } from "./data-access/mandate.repository.ts";
import { DayTotalsRepository } from "./data-access/day-totals.repository.ts";
import { PAYMENT_METHODS_COLLECTION, PaymentMethodRepository } from "./data-access/payment-method.repository.ts";
import { REVIEWS_COLLECTION, ReviewRepository } from "./data-access/review.repository.ts";
import { AmountStatsRepository } from "./data-access/amount-stats.repository.ts";
import { ANNUAL_REVIEWS_COLLECTION, ComplianceRecordsRepository } from "./data-access/compliance-records.repository.ts";
import { RETURN_WARNINGS_COLLECTION } from "./data-access/return-warning.repository.ts";
import { PAYOUT_TRANSFERS_COLLECTION, PayoutTransferRepository } from "./data-access/payout-transfer.repository.ts";

/** The collections whose documents carry the events the outbox relay publishes (each gets OUTBOX_INDEX). */
export const OUTBOX_COLLECTIONS = [TRANSACTIONS_COLLECTION, PAYMENT_METHODS_COLLECTION, TRANSFER_ATTEMPTS_COLLECTION, RETURN_WARNINGS_COLLECTION, MANDATES_COLLECTION, REVIEWS_COLLECTION, PAYOUT_TRANSFERS_COLLECTION, ANNUAL_REVIEWS_COLLECTION];

/**
 * Every index the payments service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new TransactionRepository(store).ensureIndexes();
  await new RefundTransferRepository(store).ensureIndexes();
  await new PayoutTransferRepository(store).ensureIndexes();
  await new TransferAttemptRepository(store).ensureIndexes();
  await new SubscriptionScheduleRepository(store).ensureIndexes();
  await new TransferNoticeRepository(store).ensureIndexes();
  await new MandateRepository(store).ensureIndexes();
  await new DayTotalsRepository(store).ensureIndexes();
  await new PaymentMethodRepository(store).ensureIndexes();
  await new ReviewRepository(store).ensureIndexes();
  await new AmountStatsRepository(store).ensureIndexes();
  await new ComplianceRecordsRepository(store).ensureIndexes();
  for (const name of OUTBOX_COLLECTIONS) await store.collection(name).createIndex(OUTBOX_INDEX);
}
