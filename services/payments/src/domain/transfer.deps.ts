import type { Logger } from "@payrail/runtime";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { CheckoutsPort } from "./ports/checkouts.port.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { PaymentMethodsPort } from "./ports/payment-methods.port.ts";
import type { RefundTransfersPort } from "./ports/refund-transfers.port.ts";
import type { RefundsPort } from "./ports/refunds.port.ts";
import type { TransactionsPort } from "./ports/transactions.port.ts";
import type { TransferAttemptsPort } from "./ports/transfer-attempts.port.ts";
import type { TransferPort } from "./ports/transfer.port.ts";
import type { WebhookEventsPort } from "./ports/webhook-events.port.ts";
import type { SecretBox } from "./secret-box.ts";

export interface TransferSimulator {
  simulate(transferId: string, input: { status: "completed" | "failed"; failureCode?: string }): Promise<{ event: { eventId: string; transferId: string } | null }>;
}

/** The steps of Get Processor Token, in order, each recorded before the next starts. */
export type TransferStep = "processor_token" | "customer" | "funding_source" | "transfer" | "transaction_record" | "completed";

/** What the transfer use cases need. */
export interface TransferDeps {
  checkouts: CheckoutsPort;
  merchants: MerchantsPort;
  paymentMethods: PaymentMethodsPort;
  attempts: TransferAttemptsPort;
  transactions: TransactionsPort;
  /** Refund transfers (merchant → consumer), one per refund. */
  refundTransfers: RefundTransfersPort;
  /** The refunds service, told when a refund transfer reaches a final status. */
  refunds: RefundsPort;
  webhookEvents: WebhookEventsPort;
  bankData: BankDataPort;
  transfers: TransferPort;
  secretBox: SecretBox;
  logger: Logger;
  now(): Date;
  /** How long one call may work on an attempt before another may take over (a crashed holder). */
  leaseMs: number;
  /** Sandbox providers: a merchant without a destination funding source gets a sandbox one. */
  sandbox: boolean;
  /** The webhook signing secret; unset, every webhook is refused. */
  webhookSecret: string | undefined;
  /** Checks a webhook's signature over the raw body. */
  verifyWebhook(secret: string, rawBody: string, signature: string | undefined): boolean;
  /** The event id and transfer id of a (verified) webhook body; null when it is not about a transfer. */
  parseWebhook(body: unknown): { eventId: string; transferId: string } | null;
  /** Sandbox providers only: moves a pending sandbox transfer, as Dwolla's sandbox simulations do. */
  simulator?: TransferSimulator;
  /** Tests only: runs after each step is recorded, to inject crashes between steps. */
  afterStep?(step: TransferStep, checkoutId: string): Promise<void>;
}
