import type { SubscribeOptions, Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { BalanceTransactionRepository } from "./data-access/balance-transaction.repository.ts";
import { BalanceRepository } from "./data-access/balance.repository.ts";
import type { LedgerDeps } from "./domain/ledger.deps.ts";
import { subscribeLedgerEvents } from "./entry-points/events/ledger.subscriber.ts";
import { ledgerHandlers } from "./entry-points/rpc/handlers.ts";
import { createIndexes } from "./indexes.ts";

export interface LedgerServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** PROVIDERS=live: settled debits wait `fundsAvailableDays`; sandbox providers make them available at once. Default false. */
  livemode?: boolean;
  /** FUNDS_AVAILABLE_DAYS: banking days from settlement to available (default 2). */
  fundsAvailableDays?: number;
  /** The event subscription's retry policy (tests shorten it). */
  subscribe?: SubscribeOptions;
  /** Replaces the clock (tests). */
  now?: () => Date;
}

/**
 * Composition root of the ledger service (docs/decisions/0042-merchant-books.md): the merchant's
 * books, fed by the events that move money. Indexes, the RPC queue (balance and balance
 * transactions), and the subscription that writes the rows.
 */
export async function start(deps: LedgerServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const rows = new BalanceTransactionRepository(deps.store);
  await createIndexes(deps.store);
  const domain: LedgerDeps = {
    rows,
    balances: new BalanceRepository(deps.store),
    availableDays: deps.livemode ? (deps.fundsAvailableDays ?? 2) : 0,
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
  };
  await deps.transport.serve("ledger", ledgerHandlers({ ...domain, ping: () => deps.store.ping() }));
  await subscribeLedgerEvents(deps.transport, domain, deps.subscribe);
  deps.logger.info({ fundsAvailableDays: domain.availableDays }, "ledger service started");
  return { name: "ledger", async stop() {} };
}

export { createIndexes } from "./indexes.ts";
