import { randomBytes } from "node:crypto";
import { AppError, type AnyDomainEvent, type MerchantPrincipal, type Principal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { prefixedHexId, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { start, type WebhooksServiceDeps } from "../../src/index.ts";

export { until } from "../../../../test/support/until.ts";

export interface WebhooksHarness {
  /** Calls the service over RPC, as the gateway does. */
  client: Transport;
  store: Store;
  /** Publishes a domain event on the bus, as checkout or refunds would. */
  publish(event: AnyDomainEvent): Promise<void>;
  /** Starts another replica on its own transport, sharing the store. */
  replica(): Promise<{ stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/** Short waits, so retries and timeouts run in seconds. */
export const FAST_POLICY = { retryScheduleMs: [150, 150, 150, 150], timeoutMs: 3_000, disableAfterMs: 3_600_000, leaseMs: 8_000 };

export const TEST_SECRETS_KEY = randomBytes(32);

/** The webhooks service alone, on the variant's bus and store (events are published directly). */
export async function startWebhooks(variant: InfraVariant, options: Partial<WebhooksServiceDeps> = {}): Promise<WebhooksHarness> {
  const store = await variant.store();
  const startOne = async () =>
    start({
      transport: await variant.transport(),
      store,
      logger: silentLogger(),
      secretsKey: TEST_SECRETS_KEY,
      // The receivers run on loopback (WEBHOOK_ALLOW_PRIVATE_URLS's development default).
      allowPrivateUrls: true,
      policy: FAST_POLICY,
      // One attempt per endpoint at a time: a hanging endpoint fills its slot at once, so the
      // poll's skipping of full endpoints is exercised.
      worker: { pollMs: 50, perEndpoint: 1 },
      ...options,
    });
  const replicas = [await startOne()];
  const client = await variant.transport();
  return {
    client,
    store,
    publish: (event) => client.publish(event),
    async replica() {
      const replica = await startOne();
      replicas.push(replica);
      return replica;
    },
    async stop() {
      for (const replica of replicas) await replica.stop();
    },
  };
}

/** A merchant as the gateway resolves one from an api-key (the webhooks service asks identity nothing). */
export function merchant(): MerchantPrincipal {
  return { kind: "merchant", merchantId: prefixedHexId("mer_"), keyPrefix: "sk_test_abcd", livemode: false };
}

/** A refund event of `merchant`, as the refunds service publishes it. */
export function refundEvent(merchantOf: MerchantPrincipal, type: "refund.requested" | "refund.approved" = "refund.approved"): AnyDomainEvent {
  const id = prefixedHexId("rfd_");
  const at = new Date().toISOString();
  return {
    id: prefixedHexId("evt_"),
    type,
    created_at: at,
    aggregate: { type: "refund", id, version: 2 },
    livemode: false,
    merchant_id: merchantOf.merchantId,
    data: { object: { id, transaction_uuid: prefixedHexId("sc-"), status: type === "refund.approved" ? "approved" : "pending", amount: 107.5, updated_at: at } },
  } as AnyDomainEvent;
}

export const as = (principal: Principal) => ({ requestId: `req_${randomBytes(4).toString("hex")}`, principal });

/** The AppError code a call fails with, or "resolved". */
export const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

