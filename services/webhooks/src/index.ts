import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { DomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { SecretBox, type Logger } from "@payrail/runtime";
import { OutboxRelay, type Store } from "@payrail/store";
import { DnsUrlGuard } from "./adapters/http/dns-url.guard.ts";
import { HttpWebhookSender } from "./adapters/http/http-webhook.sender.ts";
import { DeliveryRepository } from "./data-access/delivery.repository.ts";
import { EndpointQuotaRepository } from "./data-access/endpoint-quota.repository.ts";
import { EndpointRepository } from "./data-access/endpoint.repository.ts";
import { EventRepository } from "./data-access/event.repository.ts";
import { deliveryStats } from "./domain/delivery-stats.ts";
import { retentionStart } from "./domain/owned.ts";
import type { DeliveryPolicy } from "./domain/webhooks.deps.ts";
import { subscribeToDomainEvents } from "./entry-points/events/domain-events.subscriber.ts";
import { webhooksHandlers } from "./entry-points/rpc/handlers.ts";
import { DeliveryWorker, type DeliveryWorkerOptions } from "./worker/delivery.worker.ts";
import { createIndexes, WEBHOOKS_OUTBOXES } from "./indexes.ts";

// For `payrail listen`, which signs what it forwards the way deliveries are signed.
export { newSigningSecret, webhookHeaders } from "./domain/signing-secret.ts";
export { deliveryStats, type AttemptOutcome } from "./domain/delivery-stats.ts";

export interface WebhooksServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** Seals endpoint secrets at rest (SECRETS_KEY, 32 bytes). */
  secretsKey: Buffer;
  /** PROVIDERS=live: https to public addresses only. Default false (sandbox). */
  livemode?: boolean;
  /**
   * WEBHOOK_ALLOW_PRIVATE_URLS: sandbox endpoints may be on loopback or private addresses (the
   * launcher's default: on with sandbox providers). Default false; live mode never.
   */
  allowPrivateUrls?: boolean;
  /** Retry schedule, timeout and disabling (WEBHOOK_* variables); the documented values by default (docs/api-notes.md, Events and webhooks). */
  policy?: Partial<DeliveryPolicy>;
  worker?: DeliveryWorkerOptions;
  /** How often events, deliveries and attempts past the 30 days are purged (and once at start). Default hourly. */
  purgeEveryMs?: number;
  /** Records of each kind one purge pass deletes (tests); a purge runs passes until one comes back short. */
  purgeBatch?: number;
  /** Replaces the clock (tests). */
  now?: () => Date;
}

const HOUR = 3_600_000;
/** Records of each kind one purge pass deletes (below FerretDB's 65,535 per statement). */
const PURGE_BATCH = 10_000;
export const DEFAULT_POLICY: DeliveryPolicy = {
  retryScheduleMs: [5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  timeoutMs: 10_000,
  disableAfterMs: 72 * HOUR,
  // Renewed every ~3 s while an attempt runs (however long its timeout): a killed worker's
  // delivery is due again within 10 s.
  leaseMs: 10_000,
};

/**
 * Composition root of the webhooks service: indexes, the RPC queue (events API, endpoints,
 * test events), the domain-event subscription that records and fans out every event, the
 * delivery worker, and the retention purge.
 */
export async function start(deps: WebhooksServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const events = new EventRepository(deps.store);
  const endpoints = new EndpointRepository(deps.store);
  const deliveries = new DeliveryRepository(deps.store);
  await createIndexes(deps.store);
  const now = deps.now ?? (() => new Date());
  // The audit entries of the merchants' endpoint changes, test events and redeliveries travel in those documents' outbox.
  const relay = new OutboxRelay({
    store: deps.store,
    collections: WEBHOOKS_OUTBOXES,
    // Only the use cases write this outbox, with audit entries; publish checks each against its schema again.
    publish: (event) => deps.transport.publish(event as DomainEvent),
    logger: deps.logger,
  });
  const domain = {
    events,
    endpoints,
    quotas: new EndpointQuotaRepository(deps.store),
    deliveries,
    sender: new HttpWebhookSender(),
    urlGuard: new DnsUrlGuard(),
    secretBox: new SecretBox(deps.secretsKey),
    livemode: deps.livemode ?? false,
    allowPrivateUrls: deps.allowPrivateUrls ?? false,
    policy: { ...DEFAULT_POLICY, ...deps.policy },
    stats: deliveryStats,
    outbox: { written: () => relay.notify() },
    // Called only once the service serves, after the worker below exists.
    deliveriesCreated: () => worker.notify(),
    logger: deps.logger,
    now,
  };
  const worker = new DeliveryWorker(domain, deps.worker);
  await relay.start();
  await deps.transport.serve("webhooks", webhooksHandlers({ ...domain, ping: () => deps.store.ping() }));
  await subscribeToDomainEvents(deps.transport, domain);
  worker.start();
  // Bounded batches, again at once while any comes back full: each purge catches up with
  // whatever accumulated since the last, however busy the hour was.
  let purging = false;
  const batch = deps.purgeBatch ?? PURGE_BATCH;
  const purge = async () => {
    if (purging) return;
    purging = true;
    try {
      for (let full = true; full; await yieldToEvents()) {
        const before = retentionStart(now());
        const deleted = Math.max(await events.purge(before, batch), await deliveries.purge(before, batch));
        full = deleted >= batch;
      }
    } catch (err) {
      deps.logger.warn({ err }, "webhooks retention purge failed; next time");
    } finally {
      purging = false;
    }
  };
  const purgeTimer = setInterval(() => void purge(), deps.purgeEveryMs ?? HOUR);
  purgeTimer.unref();
  // A restarted service catches up at once rather than an hour later.
  void purge();
  deps.logger.info("webhooks service started");
  return {
    name: "webhooks",
    async stop() {
      clearInterval(purgeTimer);
      await worker.stop();
      await relay.stop();
    },
  };
}

export { createIndexes } from "./indexes.ts";
