import type { SubscribeOptions, Transport } from "@payrail/messaging";
import { SharedCalls, type Logger } from "@payrail/runtime";
import type { DomainEvent } from "@payrail/contracts";
import { OutboxRelay, type Store } from "@payrail/store";
import { IdentityServiceClient } from "./data-access/identity-service.client.ts";
import { PaymentsServiceClient } from "./data-access/payments-service.client.ts";
import { RefundLedgerRepository } from "./data-access/refund-ledger.repository.ts";
import { RefundRepository } from "./data-access/refund.repository.ts";
import { subscribeRefundsEvents } from "./entry-points/events/refunds.subscriber.ts";
import type { RefundsDeps } from "./entry-points/rpc/deps.ts";
import { refundsHandlers } from "./entry-points/rpc/handlers.ts";
import { createIndexes, OUTBOX_COLLECTIONS } from "./indexes.ts";

export interface RefundsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** Whether this deployment moves real money (PROVIDERS=live): the refund events' `livemode`. Default false (sandbox). */
  livemode?: boolean;
  /** How often the outbox relay looks for events it was not told about. Default 1 s. */
  outboxPollMs?: number;
  /** Retries and prefetch of the event subscription (tests shorten the retry delay). */
  subscribe?: SubscribeOptions;
  /** Replaces the clock (tests). */
  now?: () => Date;
}

/**
 * Composition root of the refunds service: indexes first, then the outbox relay (it declares
 * its own index), then the queue and the subscription to payments' refund_payout.settled. The
 * relay publishes the refund.* events the refund documents carry; the use cases tell it after
 * each such write.
 */
export async function start(deps: RefundsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const refunds = new RefundRepository(deps.store);
  await createIndexes(deps.store);
  const relay = new OutboxRelay({
    store: deps.store,
    collections: OUTBOX_COLLECTIONS,
    // The outbox only stores what the use cases wrote, which are DomainEvents; publish checks
    // each against its type's schema again anyway.
    publish: (event) => deps.transport.publish(event as DomainEvent),
    logger: deps.logger,
    ...(deps.outboxPollMs !== undefined ? { pollMs: deps.outboxPollMs } : {}),
  });
  await relay.start();
  const handlerDeps: RefundsDeps = {
      refunds,
      ledgers: new RefundLedgerRepository(deps.store),
      payments: new PaymentsServiceClient(deps.transport),
      operators: new IdentityServiceClient(deps.transport),
      events: { written: () => relay.notify() },
      livemode: deps.livemode ?? false,
      logger: deps.logger,
      now: deps.now ?? (() => new Date()),
      payoutCalls: new SharedCalls(),
      ping: () => deps.store.ping(),
  };
  await deps.transport.serve("refunds", refundsHandlers(handlerDeps));
  await subscribeRefundsEvents(deps.transport, deps.store, handlerDeps, deps.subscribe);
  deps.logger.info("refunds service started");
  return { name: "refunds", stop: () => relay.stop() };
}

export { createIndexes } from "./indexes.ts";
