import { randomBytes } from "node:crypto";
import {
  advanceSubscriptionClockOp,
  createMerchantOp,
  getCheckoutOp,
  getProcessorTokenOp,
  simulateTransferOp,
  type CheckoutView,
  type MerchantPrincipal,
  type TransactionRecord,
  type UserPrincipal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
// Through the launcher's wiring: a service never imports another service, not even in tests.
import { startServices } from "../../../../bin/wiring.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../../test/support/rpc-flow.ts";
import type { CreateTransferInput, CreatedTransfer, TransferPort } from "../../src/domain/transfers/ports/transfer.port.ts";
import { start } from "../../src/index.ts";
import { sandboxTransfersThrough, transfersWith } from "../../../../test/support/transfers-with.ts";
import { as, consumer } from "./payments-harness.ts";

/** Payments' own clock in these tests (leases, the first charge's date, the scheduler's "now"). */
export class ServiceClock {
  constructor(public ms: number) {}
  now = () => new Date(this.ms);
}

/** The provider with its createTransfer replaced by `create` (which may call the real one): fault injection and counting. */
export function withCreateTransfer(create: (input: CreateTransferInput, inner: TransferPort) => Promise<CreatedTransfer>) {
  return (inner: TransferPort): TransferPort => transfersWith(inner, { createTransfer: (input) => create(input, inner) });
}

export interface RenewalsOptions {
  /** Payments instances on the same queue and store (each with its own scheduler). Default 1. */
  replicas?: number;
  /** RENEWAL_POLL_MS; default 0 (no scheduler: the test clock drives the charges). */
  pollMs?: number;
  /** Where payments' clock starts. */
  startAt: string;
  /** TRANSFER_LEASE_MS; default 1000. */
  leaseMs?: number;
  /** Wraps the transfer provider of every replica (fault injection). */
  wrapTransfers?: (transfers: TransferPort) => TransferPort;
}

export interface Subscription {
  checkoutId: string;
  uuid: string;
  user: UserPrincipal;
}

export interface RenewalsHarness {
  client: Transport;
  store: Store;
  clock: ServiceClock;
  merchant: MerchantPrincipal;
  /** Payments' configuration: the fraud rules read their thresholds from it at each screening. */
  config: ReturnType<typeof loadConfig>;
  /** A monthly (by default) subscription whose first charge completed at the clock's time. */
  subscription(overrides?: Record<string, unknown>): Promise<Subscription>;
  advance(s: Subscription, to: string): Promise<TransactionRecord[]>;
  simulate(uuid: string, status: "completed" | "failed", failureCode?: string): Promise<TransactionRecord>;
  checkout(s: Subscription): Promise<CheckoutView>;
}

/** Identity, checkout and payments (one or more replicas, sandbox providers) on one variant's bus and store. */
export async function startRenewals(variant: InfraVariant, options: RenewalsOptions): Promise<RenewalsHarness> {
  const store = await variant.store();
  const logger = silentLogger();
  const clock = new ServiceClock(Date.parse(options.startAt));
  const config = loadConfig({ TRANSFER_LEASE_MS: String(options.leaseMs ?? 1_000), RENEWAL_POLL_MS: String(options.pollMs ?? 0) });
  await startServices(["identity", "checkout"], { config, logger, transport: await variant.transport(), store });
  const secretsKey = randomBytes(32);
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    await start({
      transport: await variant.transport(),
      store,
      logger,
      secretsKey,
      providers: config,
      now: clock.now,
      ...(options.wrapTransfers ? { transfers: await sandboxTransfersThrough(store, options.wrapTransfers, { now: clock.now, logger }) } : {}),
    });
  }
  const client = await variant.transport();
  const suffix = randomBytes(4).toString("hex");
  const created = await client.call(
    createMerchantOp,
    { name: `Merchant ${suffix}`, destination_funding_source: `https://api-sandbox.dwolla.com/funding-sources/merchant-${suffix}` },
    as({ kind: "admin" }),
  );
  const merchant: MerchantPrincipal = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
  return {
    client,
    store,
    clock,
    merchant,
    config,
    async subscription(overrides = {}) {
      const { id, user } = await linkedCheckoutOverRpc(client, merchant, consumer(), { is_subscription: true, plan_type: "monthly", ...overrides });
      const { transaction_uuid: uuid } = await client.call(getProcessorTokenOp, { checkout_id: id }, as(merchant));
      await client.call(simulateTransferOp, { transaction_uuid: uuid, status: "completed" }, as(merchant));
      return { checkoutId: id, uuid, user };
    },
    advance: (s, to) => client.call(advanceSubscriptionClockOp, { transaction_uuid: s.uuid, to }, as(merchant), { timeoutMs: 15_000 }),
    simulate: (uuid, status, failureCode) =>
      client.call(simulateTransferOp, { transaction_uuid: uuid, status, ...(failureCode ? { failure_code: failureCode } : {}) }, as(merchant)),
    checkout: (s) => client.call(getCheckoutOp, { checkout_id: s.checkoutId }, as(merchant)),
  };
}
