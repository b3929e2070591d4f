import { randomBytes } from "node:crypto";
import {
  AppError,
  createMerchantOp,
  getProcessorTokenOp,
  simulateTransferOp,
  type MerchantPrincipal,
  type Principal,
  type UserPrincipal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
// Through the launcher's wiring: a service never imports another service, not even in tests.
import { startServices } from "../../../../bin/wiring.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { refusingRefundPayouts } from "../../../../test/support/refusing-transfers.ts";
import { refundToProcessing, storeWithFaults } from "../../../../test/support/store-with-faults.ts";
import { sandboxTransfersThrough } from "../../../../test/support/transfers-with.ts";
import { linkedCheckoutOverRpc } from "../../../../test/support/rpc-flow.ts";
import { start } from "../../src/index.ts";

export interface RefundsHarness {
  client: Transport;
  store: Store;
  /** A merchant created through identity, with its own destination funding source. */
  merchant(): Promise<MerchantPrincipal>;
  /**
   * A transaction of a fresh consumer at `merchant`, through the real payments flow; left
   * `pending`, or moved to `completed` / `failed` through the sandbox simulation.
   */
  transaction(
    merchant: MerchantPrincipal,
    status?: "pending" | "completed" | "failed",
    overrides?: Record<string, unknown>,
  ): Promise<{ uuid: string; user: UserPrincipal; amountCents: number; checkoutId: string }>;
  /** Set to make the next initiate "crash" right after recording `processing`. */
  crashAfterProcessing: { next: boolean };
  /** Set to make the transfer provider refuse (for good) that many next refund payouts. */
  refusePayouts: { refunds: number };
  /** How many times the transfer provider was asked for a payout of this refund. */
  providerAsks(refundId: string): number;
  /** Stops the refunds service (its outbox relay). */
  stopRefunds(): Promise<void>;
}

/** Identity, checkout and payments through the launcher's wiring, refunds itself on a store that can crash it. */
export async function startRefunds(variant: InfraVariant): Promise<RefundsHarness> {
  const store = await variant.store();
  const logger = silentLogger();
  const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
  const asked = new Map<string, number>();
  const refusePayouts = { refunds: 0, asked };
  await startServices(["identity", "checkout", "payments"], {
    config,
    logger,
    transport: await variant.transport(),
    store,
    transfers: await sandboxTransfersThrough(store, refusingRefundPayouts(refusePayouts), { logger }),
  });
  const crashAfterProcessing = { next: false };
  // Refunds' store, with a crash right after the write that records a refund `processing`.
  const faulty = storeWithFaults(store, {
    after: async (write) => {
      if (!crashAfterProcessing.next || !refundToProcessing(write)) return;
      crashAfterProcessing.next = false;
      throw new Error(`injected crash after ${String(write.filter["_id"])} became processing`);
    },
  });
  const refunds = await start({ transport: await variant.transport(), store: faulty, logger });
  const client = await variant.transport();
  return {
    client,
    store,
    crashAfterProcessing,
    refusePayouts,
    providerAsks: (refundId) => asked.get(refundId) ?? 0,
    stopRefunds: () => refunds.stop(),
    async merchant() {
      const suffix = randomBytes(4).toString("hex");
      const created = await client.call(
        createMerchantOp,
        { name: `Merchant ${suffix}`, destination_funding_source: `https://api-sandbox.dwolla.com/funding-sources/merchant-${suffix}` },
        as({ kind: "admin" }),
      );
      return { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
    },
    async transaction(merchant, status = "completed", overrides = {}) {
      const { id, user } = await linkedCheckoutOverRpc(client, merchant, consumer(), overrides);
      const { transaction_uuid: uuid } = await client.call(getProcessorTokenOp, { checkout_id: id }, as(merchant));
      if (status !== "pending") await client.call(simulateTransferOp, { transaction_uuid: uuid, status }, as(merchant));
      // sampleCheckout's total is 107.5.
      return { uuid, user, amountCents: 10_750, checkoutId: id };
    },
  };
}

let phones = 0;
/** A consumer as the gateway would resolve one (identity need not know them for these calls). */
export function consumer(phone = `+1415556${String(++phones % 10_000).padStart(4, "0")}`): UserPrincipal {
  return { kind: "user", userId: randomBytes(16).toString("hex"), phone };
}

export const as = (principal: Principal) => ({ requestId: `req_${randomBytes(4).toString("hex")}`, principal });
export const SERVICE: Principal = { kind: "service", service: "test" };

/** The AppError code a call fails with, or "resolved". */
export const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );
