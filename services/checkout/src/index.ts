import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { CheckoutRepository } from "./data-access/checkout.repository.ts";
import { LinkTokenRepository } from "./data-access/link-token.repository.ts";
import { checkoutHandlers } from "./entry-points/rpc/handlers.ts";

export interface CheckoutServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
}

/** Composition root: indexes first, then the queue, so no request meets a missing index. */
export async function start(deps: CheckoutServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const checkouts = new CheckoutRepository(deps.store);
  const linkTokens = new LinkTokenRepository(deps.store);
  await checkouts.ensureIndexes();
  await linkTokens.ensureIndexes();
  await deps.transport.serve("checkout", checkoutHandlers({ checkouts, linkTokens, ping: () => deps.store.ping() }));
  deps.logger.info("checkout service started");
  // The transport owns the consumers; stopping the transport stops them.
  return { name: "checkout", stop: async () => {} };
}
