import type { DomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { DayTotalsPort } from "../payment-stats/ports/day-totals.port.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { RenewalOutcomeDeps } from "../renewals/renewal.deps.ts";
import type { TransferRecordedDeps } from "./transfer-recorded.deps.ts";
import type { BankDataPort } from "../bank-accounts/ports/bank-data.port.ts";
import type { CheckoutsPort } from "../shared/ports/checkouts.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import type { PaymentMethodsPort } from "../bank-accounts/ports/payment-methods.port.ts";
import type { RefundTransfersPort } from "../refund-payouts/ports/refund-transfers.port.ts";
import type { PayoutTransfersPort } from "../merchant-payouts/ports/payout-transfers.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { TransferAttemptsPort } from "./ports/transfer-attempts.port.ts";
import type { TransferPort } from "./ports/transfer.port.ts";
import type { WebhookEventsPort } from "./ports/webhook-events.port.ts";
import type { TransferNoticesPort } from "./ports/transfer-notices.port.ts";
import type { ReturnWarningsPort } from "../returns/ports/return-warnings.port.ts";
import type { SecretBox } from "@payrail/runtime";
import type { MandatesPort } from "../mandates/ports/mandates.port.ts";
import type { BlockedBankAccountsPort } from "../returns/ports/blocked-bank-accounts.port.ts";
import type { BlockingDeps } from "../returns/block-bank-account.ts";
import type { ScreeningDeps } from "../fraud/screen-debit.ts";
import type { ReviewsPort } from "../fraud/ports/reviews.port.ts";
import type { AmountStatsPort } from "../fraud/ports/amount-stats.port.ts";

/*
 * What each group of payments' use cases needs, and nothing more: a use case names the
 * narrowest of these (or a Pick of one), so its test builds only what it uses.
 */

export interface TransferSimulator {
  /** Moves the transfer, with the merchant's audit entry in the same write; `changed` false when it moved nothing. */
  simulate(
    transferId: string,
    input: { status: "completed" | "failed"; failureCode?: string },
    audit?: readonly DomainEvent[],
  ): Promise<{ changed: boolean; event: { eventId: string; transferId: string } | null }>;
}

/** Get Processor Token: the checkout read once at the start, then the provider steps. */
export interface TransferDeps extends PaymentEventsDeps, TransferRecordedDeps, ScreeningDeps {
  checkouts: Pick<CheckoutsPort, "getSummary">;
  merchants: MerchantsPort;
  paymentMethods: PaymentMethodsPort;
  /** Debit authorizations: every debit needs an active one (docs/api-notes.md, Mandates). */
  mandates: MandatesPort;
  /** Blocked bank accounts: no debit from one (docs/api-notes.md, Returns and blocked bank accounts). */
  blocks: BlockedBankAccountsPort;
  attempts: TransferAttemptsPort;
  transactions: TransactionsPort;
  /** Fraud reviews of held debits, and how long one waits for the merchant (REVIEW_EXPIRES_HOURS). */
  reviews: ReviewsPort;
  reviewExpiresMs: number;
  bankData: BankDataPort;
  transfers: TransferPort;
  secretBox: SecretBox;
  logger: Logger;
  now(): Date;
  /** How long one call may work on an attempt before another may take over (a crashed holder). */
  leaseMs: number;
  /** Sandbox providers: a merchant without a destination funding source gets a sandbox one. */
  sandbox: boolean;
}

/** A transfer's (or a refund payout's) status moving: provider webhooks and sandbox simulations. */
export interface StatusDeps extends RenewalOutcomeDeps, BlockingDeps {
  attempts: Pick<TransferAttemptsPort, "find" | "onAccount" | "markAccountBlocked">;
  transactions: TransactionsPort;
  /** Per-merchant per-day settled totals (the dashboard's overview). */
  dayTotals: DayTotalsPort;
  /** Per-merchant weekly sums of settled amounts (the fraud amount rule). */
  amountStats: AmountStatsPort;
  /** Refund transfers (merchant → consumer), one per refund payout. */
  refundTransfers: RefundTransfersPort;
  /** Merchant payout transfers (merchant → its bank), one per ledger payout. */
  payoutTransfers: PayoutTransfersPort;
  webhookEvents: WebhookEventsPort;
  /** Notices that arrived before their transfer's record. */
  notices: TransferNoticesPort;
  /** Which return-rate groups of each merchant stand warned. */
  returnWarnings: ReturnWarningsPort;
  transfers: TransferPort;
  logger: Logger;
  now(): Date;
}

/** The transfer provider's signed webhooks. */
export interface WebhookDeps extends StatusDeps {
  /** The webhook signing secret; unset, every webhook is refused. */
  webhookSecret: string | undefined;
  /** Checks a webhook's signature over the raw body. */
  verifyWebhook(secret: string, rawBody: string, signature: string | undefined): boolean;
  /** The event id and transfer id of a (verified) webhook body; null when it is not about a transfer. */
  parseWebhook(body: unknown): { eventId: string; transferId: string } | null;
}

/** Sandbox simulations: the simulator moves a sandbox transfer, then the status path runs. */
export interface SimulateDeps extends StatusDeps {
  /** Sandbox providers only: moves a pending sandbox transfer, as Dwolla's sandbox simulations do. */
  simulator?: TransferSimulator;
}

/** Starting a refund payout: the transaction's sums, the original transfer's ends, the provider. */
export interface RefundPayoutDeps extends PaymentEventsDeps, TransferRecordedDeps {
  transactions: TransactionsPort;
  refundTransfers: RefundTransfersPort;
  attempts: TransferAttemptsPort;
  transfers: TransferPort;
  logger: Logger;
  now(): Date;
}

/** Sending a ledger payout to the merchant's bank. */
export interface PayoutDeps extends PaymentEventsDeps, TransferRecordedDeps {
  payoutTransfers: PayoutTransfersPort;
  merchants: MerchantsPort;
  transfers: TransferPort;
  /** Sandbox providers: the merchant's ends are simulated when not configured. */
  sandbox: boolean;
  logger: Logger;
  now(): Date;
}
