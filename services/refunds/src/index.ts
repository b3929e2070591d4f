import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { IdentityServiceClient } from "./data-access/identity-service.client.ts";
import { PaymentsServiceClient } from "./data-access/payments-service.client.ts";
import { RefundLedgerRepository } from "./data-access/refund-ledger.repository.ts";
import { RefundRepository } from "./data-access/refund.repository.ts";
import { refundsHandlers } from "./entry-points/rpc/handlers.ts";

export interface RefundsServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** Replaces the clock (tests). */
  now?: () => Date;
  /** Tests only: runs between recording a refund `processing` and asking for its transfer. */
  afterProcessing?: (refundId: string) => Promise<void>;
}

/** Composition root of the refunds service: indexes first, then the queue. */
export async function start(deps: RefundsServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const refunds = new RefundRepository(deps.store);
  await refunds.ensureIndexes();
  await deps.transport.serve(
    "refunds",
    refundsHandlers({
      refunds,
      ledgers: new RefundLedgerRepository(deps.store),
      payments: new PaymentsServiceClient(deps.transport),
      operators: new IdentityServiceClient(deps.transport),
      logger: deps.logger,
      now: deps.now ?? (() => new Date()),
      ...(deps.afterProcessing ? { afterProcessing: deps.afterProcessing } : {}),
      ping: () => deps.store.ping(),
    }),
  );
  deps.logger.info("refunds service started");
  return { name: "refunds", stop: async () => {} };
}
