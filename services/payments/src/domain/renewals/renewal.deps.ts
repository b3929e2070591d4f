import type { Logger } from "@payrail/runtime";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { SubscriptionSchedulesPort } from "./ports/subscription-schedules.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "../transfers/ports/transfer-attempts.port.ts";
import type { TransferPort } from "../transfers/ports/transfer.port.ts";
import type { RenewalPolicy } from "./renewal-policy.ts";
import type { UpcomingNoticePolicy } from "./upcoming-charge.ts";
import type { TransferRecordedDeps } from "../transfers/transfer-recorded.deps.ts";
import type { DebitMandateDeps } from "../mandates/require-debit-mandate.ts";
import type { BlockingDeps } from "../returns/block-bank-account.ts";
import type { ScreeningDeps } from "../fraud/screen-debit.ts";
import type { ReviewsPort } from "../fraud/ports/reviews.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";

/** What a renewal's outcome needs: the subscription, its schedule and the retry policy. */
export interface RenewalOutcomeDeps extends PaymentEventsDeps {
  attempts: Pick<TransferAttemptsPort, "find">;
  schedules: SubscriptionSchedulesPort;
  renewalPolicy: RenewalPolicy;
  now(): Date;
}

/** Making renewal charges (the scheduler and the sandbox test clock). */
export interface RenewalDeps extends RenewalOutcomeDeps, TransferRecordedDeps, DebitMandateDeps, BlockingDeps, ScreeningDeps {
  attempts: Pick<TransferAttemptsPort, "find" | "onAccount" | "markAccountBlocked">;
  transactions: TransactionsPort;
  transfers: TransferPort;
  logger: Logger;
  /** How long one charger may hold a subscription's renewal before another takes over (a crashed holder). */
  leaseMs: number;
  /** The consumer's payment methods: the mandate's, the blocked flag's and screening's reads. */
  paymentMethods: PaymentMethodsPort;
  /** Fraud reviews of held renewals, and how long one waits for the merchant (REVIEW_EXPIRES_HOURS). */
  reviews: ReviewsPort;
  reviewExpiresMs: number;
  /** When renewals are announced to the consumer (NOTICE_DAYS_BEFORE). */
  upcomingNotice: UpcomingNoticePolicy;
}
