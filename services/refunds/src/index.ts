import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { refundsHandlers } from "./entry-points/rpc/handlers.ts";

export interface RefundsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
}

/** Composition root of the refunds service. */
export async function start(deps: RefundsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  await deps.transport.serve("refunds", refundsHandlers({ ping: () => deps.store.ping() }));
  deps.logger.info("refunds service started");
  return { name: "refunds", stop: async () => {} };
}
