import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { paymentsHandlers } from "./entry-points/rpc/handlers.ts";

export interface PaymentsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
}

/** Composition root of the payments service. */
export async function start(deps: PaymentsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  await deps.transport.serve("payments", paymentsHandlers({ ping: () => deps.store.ping() }));
  deps.logger.info("payments service started");
  return { name: "payments", stop: async () => {} };
}
