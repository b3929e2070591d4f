import type { DomainEvent } from "@payrail/contracts";
import type { SubscribeOptions, Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import { JobLeases, OutboxRelay, type Store } from "@payrail/store";
import { AuditLogRepository } from "./data-access/audit-log.repository.ts";
import { BalanceTransactionRepository } from "./data-access/balance-transaction.repository.ts";
import { BalanceRepository } from "./data-access/balance.repository.ts";
import { PaymentsServiceClient } from "./data-access/payments-service.client.ts";
import { PAYOUTS_COLLECTION, PayoutRepository } from "./data-access/payout.repository.ts";
import type { PayoutDeps } from "./domain/ledger.deps.ts";
import { subscribeLedgerEvents } from "./entry-points/events/ledger.subscriber.ts";
import { ledgerHandlers } from "./entry-points/rpc/handlers.ts";
import { createIndexes } from "./indexes.ts";
import { startPayoutScheduler } from "./entry-points/scheduler/payout.scheduler.ts";

export { payoutPass } from "./domain/run-payouts.use-case.ts";

/** How long one merchant's payout, or one pass, may hold its lease before another replica may take over (a holder that died). */
const PAYOUT_LEASE_MS = 5 * 60_000;

export interface LedgerServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** PROVIDERS=live: settled debits wait `fundsAvailableDays`; sandbox providers make them available at once. Default false. */
  livemode?: boolean;
  /** FUNDS_AVAILABLE_DAYS: banking days from settlement to available (default 2). */
  fundsAvailableDays?: number;
  /** PAYOUT_SCHEDULE: how often a payout pass is tried, in ms (default a day); 0 turns it off. */
  payoutEveryMs?: number;
  /** How long a payout may hold its lease (tests shorten it to take over from a crashed run). Default 5 min. */
  payoutLeaseMs?: number;
  /** How often the outbox relay looks for events it was not told about. Default 1 s. */
  outboxPollMs?: number;
  /** The event subscription's retry policy (tests shorten it). */
  subscribe?: SubscribeOptions;
  /** Replaces the clock (tests). */
  now?: () => Date;
}

/**
 * Composition root of the ledger service (docs/decisions/0042-merchant-books.md,
 * docs/decisions/0050-payouts.md): the merchant's books, fed by the events that move money, and
 * the payouts of the available balance. Indexes, the outbox relay of the payout events, the RPC
 * queue, the subscription that writes the rows and settles payouts, and the payout schedule.
 */
export async function start(deps: LedgerServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const rows = new BalanceTransactionRepository(deps.store);
  await createIndexes(deps.store);
  const payouts = new PayoutRepository(deps.store);
  const relay = new OutboxRelay({
    store: deps.store,
    collections: [PAYOUTS_COLLECTION],
    // The outbox only stores the payout events the use cases wrote; publish checks each against its schema again.
    publish: (event) => deps.transport.publish(event as DomainEvent),
    logger: deps.logger,
    ...(deps.outboxPollMs !== undefined ? { pollMs: deps.outboxPollMs } : {}),
  });
  await relay.start();
  const domain: PayoutDeps = {
    rows,
    balances: new BalanceRepository(deps.store),
    auditLog: new AuditLogRepository(deps.store, { logger: deps.logger, ...(deps.now ? { now: () => deps.now!().getTime() } : {}) }),
    payouts,
    jobs: new JobLeases(deps.store, "ledger_job_leases"),
    transfers: new PaymentsServiceClient(deps.transport),
    leaseMs: deps.payoutLeaseMs ?? PAYOUT_LEASE_MS,
    livemode: deps.livemode ?? false,
    events: { written: () => relay.notify() },
    availableDays: deps.livemode ? (deps.fundsAvailableDays ?? 2) : 0,
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
  };
  await deps.transport.serve("ledger", ledgerHandlers({ ...domain, sandbox: !deps.livemode, ping: () => deps.store.ping() }));
  await subscribeLedgerEvents(deps.transport, domain, deps.subscribe);
  const payoutEvery = deps.payoutEveryMs ?? 86_400_000;
  const scheduler = payoutEvery > 0 ? startPayoutScheduler(domain, payoutEvery) : null;
  deps.logger.info({ fundsAvailableDays: domain.availableDays, payoutEveryMs: payoutEvery }, "ledger service started");
  return {
    name: "ledger",
    async stop() {
      await scheduler?.stop();
      await relay.stop();
    },
  };
}

export { createIndexes } from "./indexes.ts";
