import { createTransport, type Transport, type TrustedSenders } from "@payrail/messaging";
import { SecretBox, type Config, type Logger, type ServiceName } from "@payrail/runtime";
import type { RpcReplyEnvelope } from "@payrail/contracts";
import { createEventDeadLetters, createEventQueues, createReplyLedger, type Store } from "@payrail/store";
import type * as gateway from "@payrail/gateway";
import type * as payments from "@payrail/payments";
import { DOMAIN_SERVICES } from "./domain-services.ts";
import { SERVICE_MODULES } from "./service-modules.ts";
import { resolveSecretsKey } from "./secrets-key.ts";

/** Checkout numbers and transaction ids per counter write in embedded mode (docs/decisions/0016-embedded-store.md, "Sequence numbers in blocks"). */
const EMBEDDED_SEQUENCE_BLOCK = 100;

export interface Started {
  name: string;
  stop(): Promise<void>;
  url?: string;
}

export { openStore } from "./open-store.ts";

export function openTransport(config: Config, logger: Logger): Promise<Transport> {
  return createTransport({
    amqpUrl: config.AMQP_URL,
    logger,
    prefetch: config.RPC_PREFETCH,
    defaultTimeoutMs: config.RPC_TIMEOUT_MS,
    trustedSenders: trustedSenders(config),
    eventRetry: { retryForMs: Math.round(config.EVENT_RETRY_HOURS * 3_600_000) },
  });
}

/**
 * The broker trust boundary, on when the gateway's users are named (AMQP_GATEWAY_USERS). It then
 * needs the services' users too: without them every event would be refused as forged.
 */
export function trustedSenders(config: Config): TrustedSenders | undefined {
  if (!config.AMQP_GATEWAY_USERS?.length) return undefined;
  if (!config.AMQP_SERVICE_USERS) throw new Error("AMQP_GATEWAY_USERS is set but AMQP_SERVICE_USERS is not: name each service's broker user (payments:payrail-payments,…)");
  return { gateway: config.AMQP_GATEWAY_USERS, services: config.AMQP_SERVICE_USERS ?? {}, admin: config.AMQP_ADMIN_USERS ?? [] };
}

/**
 * Whether webhook endpoints may be on loopback or private addresses: only with sandbox
 * providers, whatever NODE_ENV says, and there unless WEBHOOK_ALLOW_PRIVATE_URLS=false. Live
 * providers never (docs/decisions/0005-webhook-targets.md).
 */
export function privateWebhookUrlsAllowed(config: Pick<Config, "PROVIDERS" | "WEBHOOK_ALLOW_PRIVATE_URLS">): boolean {
  return config.PROVIDERS === "sandbox" && (config.WEBHOOK_ALLOW_PRIVATE_URLS ?? true);
}

export { DOMAIN_SERVICES } from "./domain-services.ts";

/**
 * Starts the named services on one transport and store: domain services first (they create
 * their indexes before consuming), the gateway last, so it never accepts a request early.
 */
export async function startServices(
  names: readonly ServiceName[],
  deps: {
    config: Config;
    logger: Logger;
    transport: Transport;
    store: Store | null;
    /** Replaces the transfer provider PROVIDERS chooses for payments (see PaymentsServiceDeps). */
    transfers?: payments.TransferProvider;
    /** The process's metrics, which the gateway serves on /metrics with its own. */
    processMetrics?: gateway.GatewayServiceDeps["processMetrics"];
    /** false: the gateway's HTTP metrics join `processMetrics`, served on METRICS_PORT only (production). */
    metricsOnApiPort?: boolean;
    /** The admin token `payrail start` makes for the CLI beside an embedded store (cli-access.ts). */
    cliAdminToken?: string | undefined;
    /**
     * The secrets key, resolved by the launcher or the CLI before it opened the store (a refusal
     * then leaves DATA_DIR as it was); else resolved here, made if DATA_DIR holds no data yet.
     */
    secretsKey?: Buffer | undefined;
  },
): Promise<Started[]> {
  const { config, logger, transport, store } = deps;
  // Dead letters in the store for `payrail events` (issue 19); in embedded mode the bus's queues
  // too, so an event the relays marked sent survives a crash before its subscribers handled it.
  if (store && names.some((n) => n !== "gateway")) {
    const queues = config.AMQP_URL ? undefined : await createEventQueues(store);
    await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), ...(queues ? { queues } : {}) });
  }
  // One key for every service of the process (SECRETS_KEY, or embedded mode's generated one).
  let key: Buffer | undefined;
  const secretsKey = async () => (key ??= deps.secretsKey ?? (await resolveSecretsKey(config, { create: true })));
  // Redelivered and retried commands, and Idempotency-Key repeats, get their first reply (issue 13),
  // kept sealed: replies carry API keys, auth tokens and webhook secrets (issue 21).
  if (store && names.some((n) => n !== "gateway")) {
    transport.useReplyLedger(await createReplyLedger<RpcReplyEnvelope>(store, { sealer: new SecretBox(await secretsKey()) }));
  }
  const started: Started[] = [];
  for (const name of DOMAIN_SERVICES) {
    if (!names.includes(name)) continue;
    if (!store) throw new Error(`${name} needs a store`);
    const log = logger.child({ service: name });
    const common = { transport, store, logger: log };
    // The embedded store has one writer, this process (its lock), so numbers may come in blocks.
    const sequenceBlock = config.MONGODB_URL ? 1 : EMBEDDED_SEQUENCE_BLOCK;
    if (name === "identity") {
      const identity = await SERVICE_MODULES.identity();
      started.push(
        await identity.start({
          ...common,
          livemode: config.PROVIDERS === "live",
          authTokenTtlHours: config.AUTH_TOKEN_TTL_HOURS,
          defaultPhoneCountry: config.DEFAULT_PHONE_COUNTRY,
          twilio: { accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN, fromNumber: config.TWILIO_FROM_NUMBER },
          secretsKey: await secretsKey(),
          smtpUrl: config.SMTP_URL,
          smtpFrom: config.SMTP_FROM,
          publicUrl: config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`,
          sendCodeBudgets: {
            perAddressPerHour: config.SEND_CODE_PER_ADDRESS_PER_HOUR,
            perCountryPerHour: config.SEND_CODE_PER_COUNTRY_PER_HOUR,
            perHour: config.SEND_CODE_PER_HOUR,
          },
        }),
      );
    }
    if (name === "checkout") started.push(await (await SERVICE_MODULES.checkout()).start({ ...common, sequenceBlock, livemode: config.PROVIDERS === "live" }));
    if (name === "payments") started.push(await (await SERVICE_MODULES.payments()).start({ ...common, sequenceBlock, secretsKey: await secretsKey(), providers: config, ...(deps.transfers ? { transfers: deps.transfers } : {}) }));
    if (name === "refunds") started.push(await (await SERVICE_MODULES.refunds()).start({ ...common, livemode: config.PROVIDERS === "live" }));
    if (name === "webhooks") {
      const policy = { retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE, timeoutMs: config.WEBHOOK_TIMEOUT, disableAfterMs: config.WEBHOOK_DISABLE_AFTER };
      const allowPrivateUrls = privateWebhookUrlsAllowed(config);
      started.push(await (await SERVICE_MODULES.webhooks()).start({ ...common, secretsKey: await secretsKey(), livemode: config.PROVIDERS === "live", allowPrivateUrls, policy }));
    }
    if (name === "notices") {
      started.push(
        await (await SERVICE_MODULES.notices()).start({
          ...common,
          livemode: config.PROVIDERS === "live",
          smtpUrl: config.SMTP_URL,
          smtpFrom: config.SMTP_FROM,
          publicUrl: config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`,
          secretsKey: await secretsKey(),
          policy: { retryScheduleMs: config.NOTICE_RETRY_SCHEDULE },
        }),
      );
    }
    if (name === "ledger") started.push(await (await SERVICE_MODULES.ledger()).start({ ...common, livemode: config.PROVIDERS === "live", fundsAvailableDays: config.FUNDS_AVAILABLE_DAYS, payoutEveryMs: config.PAYOUT_SCHEDULE }));
  }
  if (names.includes("gateway")) {
    started.push(
      await (await SERVICE_MODULES.gateway()).start({
        transport,
        logger: logger.child({ service: "gateway" }),
        host: config.HOST,
        port: config.PORT,
        adminToken: config.ADMIN_TOKEN,
        cliAdminToken: deps.cliAdminToken,
        apiKeyCacheMs: config.API_KEY_CACHE_MS,
        rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
        authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
        // auto: shared where gateways can be several (RabbitMQ); one process counts alone at no cost.
        sharedLimits: config.SHARED_LIMITS === "on" || (config.SHARED_LIMITS === "auto" && !!config.AMQP_URL),
        trustProxy: config.TRUST_PROXY,
        services: DOMAIN_SERVICES,
        sandbox: config.PROVIDERS === "sandbox",
        publicUrl: config.PUBLIC_URL,
        defaultPhoneCountry: config.DEFAULT_PHONE_COUNTRY,
        secureCookies: process.env.NODE_ENV === "production",
        sandboxEventsPerMinute: config.SANDBOX_EVENTS_PER_MINUTE,
        corsOrigins: config.CORS_ORIGINS,
        processMetrics: deps.processMetrics,
        metricsOnApiPort: deps.metricsOnApiPort ?? true,
        drainDelayMs: config.DRAIN_DELAY_MS,
      }),
    );
  }
  return started;
}
