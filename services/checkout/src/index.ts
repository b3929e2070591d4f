import type { SubscribeOptions, Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import { OutboxRelay, type Store } from "@payrail/store";
import { fromStoredEvent } from "./data-access/checkout-outbox.ts";
import { CheckoutRepository } from "./data-access/checkout.repository.ts";
import { LinkTokenRepository } from "./data-access/link-token.repository.ts";
import { subscribeCheckoutEvents } from "./entry-points/events/checkout.subscriber.ts";
import type { CheckoutDeps } from "./entry-points/rpc/deps.ts";
import { checkoutHandlers } from "./entry-points/rpc/handlers.ts";
import { createIndexes, OUTBOX_COLLECTIONS } from "./indexes.ts";

export interface CheckoutServiceDeps {
  /**
   * Sequence values reserved per counter write (default 1). The launcher sets more only when
   * this process is the store's one writer (the embedded store): see the repository.
   */
  sequenceBlock?: number;
  transport: Transport;
  store: Store;
  logger: Logger;
  /** Whether this deployment moves real money (PROVIDERS=live): the checkout events' `livemode`. Default false (sandbox). */
  livemode?: boolean;
  /** How often the outbox relay looks for events it was not told about. Default 1 s. */
  outboxPollMs?: number;
  /** Retries and prefetch of the event subscription (tests shorten the retry delay). */
  subscribe?: SubscribeOptions;
}

/**
 * Composition root: indexes first, then the outbox relay (it declares its own index), then the
 * RPC queue and the event subscription, so no request or event meets a missing index. The relay
 * publishes the checkout.* events the checkout documents carry; the use cases tell it after
 * each such write. The subscription follows payments' events (see checkout.subscriber.ts).
 */
export async function start(deps: CheckoutServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const checkouts = new CheckoutRepository(deps.store, deps.sequenceBlock);
  const linkTokens = new LinkTokenRepository(deps.store);
  await createIndexes(deps.store);
  const relay = new OutboxRelay({
    store: deps.store,
    collections: OUTBOX_COLLECTIONS,
    // The outbox holds the events as the repository stored them; publish checks each against
    // its type's schema again.
    publish: (stored) => deps.transport.publish(fromStoredEvent(stored)),
    logger: deps.logger,
    ...(deps.outboxPollMs !== undefined ? { pollMs: deps.outboxPollMs } : {}),
  });
  await relay.start();
  const handlerDeps: CheckoutDeps = {
    checkouts,
    linkTokens,
    events: { written: () => relay.notify() },
    livemode: deps.livemode ?? false,
    ping: () => deps.store.ping(),
  };
  await deps.transport.serve("checkout", checkoutHandlers(handlerDeps));
  await subscribeCheckoutEvents(deps.transport, handlerDeps, deps.subscribe);
  deps.logger.info("checkout service started");
  // The transport owns the consumers; stopping the transport stops them. The relay is ours.
  return { name: "checkout", stop: () => relay.stop() };
}

export { createIndexes } from "./indexes.ts";
