import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { MerchantRepository } from "./data-access/merchant.repository.ts";
import { identityHandlers } from "./entry-points/rpc/handlers.ts";

export interface IdentityServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  livemode: boolean;
}

/** Composition root of the identity service. */
export async function start(deps: IdentityServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const merchants = new MerchantRepository(deps.store);
  await merchants.ensureIndexes();
  await deps.transport.serve("identity", identityHandlers({ merchants, livemode: deps.livemode, ping: () => deps.store.ping() }));
  deps.logger.info("identity service started");
  return { name: "identity", stop: async () => {} };
}
