import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { createBankData, type BankDataConfig } from "./adapters/create-bank-data.ts";
import { createTransfers, type TransfersConfig } from "./adapters/create-transfers.ts";
import { verifyDwollaSignature } from "./adapters/dwolla/dwolla-webhook.signature.ts";
import { parseDwollaTransferWebhook } from "./adapters/dwolla/dwolla-webhook.parse.ts";
import { IdentityServiceClient } from "./data-access/identity-service.client.ts";
import { TransactionRepository } from "./data-access/transaction.repository.ts";
import { TransferAttemptRepository } from "./data-access/transfer-attempt.repository.ts";
import { WebhookEventRepository } from "./data-access/webhook-event.repository.ts";
import type { TransferStep } from "./domain/transfer.deps.ts";
import { CheckoutServiceClient } from "./data-access/checkout-service.client.ts";
import { ClaimRepository } from "./data-access/claim.repository.ts";
import { PaymentMethodRepository } from "./data-access/payment-method.repository.ts";
import { RefundTransferRepository } from "./data-access/refund-transfer.repository.ts";
import { RefundsServiceClient } from "./data-access/refunds-service.client.ts";
import type { BankDataPort } from "./domain/ports/bank-data.port.ts";
import type { TransferPort } from "./domain/ports/transfer.port.ts";
import { SecretBox } from "./domain/secret-box.ts";
import { paymentsHandlers } from "./entry-points/rpc/handlers.ts";

export type { BankDataPort } from "./domain/ports/bank-data.port.ts";
export type { BankDataConfig } from "./adapters/create-bank-data.ts";
export { TransferRefused, type TransferPort } from "./domain/ports/transfer.port.ts";

export interface PaymentsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** The 32-byte key that seals provider access tokens at rest (SECRETS_KEY, see bin/secrets-key.ts). */
  secretsKey: Buffer;
  /** Which providers to use (PROVIDERS) and their settings. */
  providers: BankDataConfig & TransfersConfig & { DWOLLA_WEBHOOK_SECRET?: string | undefined; TRANSFER_LEASE_MS: number };
  /** Replaces the provider chosen by `providers` (tests). */
  bankData?: BankDataPort;
  /** Replaces the clock (tests move time past a lease). */
  now?: () => Date;
  /** Tests only: runs after each transfer step is recorded, to inject crashes between steps. */
  afterStep?: (step: TransferStep, checkoutId: string) => Promise<void>;
  /** Tests only: wraps the transfer provider (to make it refuse a transfer, say). */
  wrapTransfers?: (transfers: TransferPort) => TransferPort;
}

/** Composition root of the payments service. */
export async function start(deps: PaymentsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const secretBox = new SecretBox(deps.secretsKey);
  const bankData = deps.bankData ?? (await createBankData(deps.providers, deps.store, deps.logger));
  const created = await createTransfers(deps.providers, deps.store, deps.logger);
  const transfers = deps.wrapTransfers ? deps.wrapTransfers(created.transfers) : created.transfers;
  const simulator = created.simulator;
  const transactions = new TransactionRepository(deps.store);
  await transactions.ensureIndexes();
  const refundTransfers = new RefundTransferRepository(deps.store);
  await refundTransfers.ensureIndexes();
  await deps.transport.serve(
    "payments",
    paymentsHandlers({
      checkouts: new CheckoutServiceClient(deps.transport),
      merchants: new IdentityServiceClient(deps.transport),
      claims: new ClaimRepository(deps.store),
      paymentMethods: new PaymentMethodRepository(deps.store),
      attempts: new TransferAttemptRepository(deps.store),
      transactions,
      refundTransfers,
      refunds: new RefundsServiceClient(deps.transport),
      webhookEvents: new WebhookEventRepository(deps.store),
      bankData,
      transfers,
      ...(simulator ? { simulator } : {}),
      secretBox,
      logger: deps.logger,
      now: deps.now ?? (() => new Date()),
      leaseMs: deps.providers.TRANSFER_LEASE_MS,
      sandbox: deps.providers.PROVIDERS === "sandbox",
      webhookSecret: deps.providers.DWOLLA_WEBHOOK_SECRET,
      verifyWebhook: verifyDwollaSignature,
      parseWebhook: parseDwollaTransferWebhook,
      ...(deps.afterStep ? { afterStep: deps.afterStep } : {}),
      ping: () => deps.store.ping(),
    }),
  );
  deps.logger.info({ bankData: bankData.provider, transfers: transfers.provider }, "payments service started");
  return { name: "payments", stop: async () => {} };
}
