import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { createBankData, type BankDataConfig } from "./adapters/create-bank-data.ts";
import { CheckoutServiceClient } from "./data-access/checkout-service.client.ts";
import { ClaimRepository } from "./data-access/claim.repository.ts";
import { PaymentMethodRepository } from "./data-access/payment-method.repository.ts";
import type { BankDataPort } from "./domain/ports/bank-data.port.ts";
import { SecretBox } from "./domain/secret-box.ts";
import { paymentsHandlers } from "./entry-points/rpc/handlers.ts";

export type { BankDataPort } from "./domain/ports/bank-data.port.ts";
export type { BankDataConfig } from "./adapters/create-bank-data.ts";

export interface PaymentsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** The 32-byte key that seals provider access tokens at rest (SECRETS_KEY, see bin/secrets-key.ts). */
  secretsKey: Buffer;
  /** Which bank-data provider to use (PROVIDERS) and Plaid's settings. */
  providers: BankDataConfig;
  /** Replaces the provider chosen by `providers` (tests). */
  bankData?: BankDataPort;
}

/** Composition root of the payments service. */
export async function start(deps: PaymentsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const secretBox = new SecretBox(deps.secretsKey);
  const bankData = deps.bankData ?? createBankData(deps.providers, deps.store, deps.logger);
  await deps.transport.serve(
    "payments",
    paymentsHandlers({
      checkouts: new CheckoutServiceClient(deps.transport),
      claims: new ClaimRepository(deps.store),
      paymentMethods: new PaymentMethodRepository(deps.store),
      bankData,
      secretBox,
      logger: deps.logger,
      ping: () => deps.store.ping(),
    }),
  );
  deps.logger.info({ bankData: bankData.provider }, "payments service started");
  return { name: "payments", stop: async () => {} };
}
