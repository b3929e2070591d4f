import { randomBytes } from "node:crypto";
import { createMerchantOp } from "@payrail/contracts";
import { buildApp, type GatewayOptions } from "@payrail/gateway";
import type { Transport } from "@payrail/messaging";
import type { TransferPort } from "@payrail/payments";
import { loadConfig, silentLogger, type Logger } from "@payrail/runtime";
import type { FastifyInstance } from "fastify";
import { startServices } from "../../bin/wiring.ts";
import type { InfraVariant } from "./infra.ts";
import { storeWithFaults, type WriteFaults } from "./store-with-faults.ts";
import { sandboxTransfersThrough } from "./transfers-with.ts";
import { afterAll, beforeAll } from "vitest";

export const ADMIN_TOKEN = "test-admin-token";
/** Signs transfer webhooks in tests (DWOLLA_WEBHOOK_SECRET). */
export const WEBHOOK_SECRET = "test-webhook-secret";

export interface Stack {
  app: FastifyInstance;
  /** A client transport, for calls that bypass HTTP. */
  transport: Transport;
  /** Creates a merchant through identity and returns its id and api-key. */
  merchant(name?: string): Promise<{ id: string; apiKey: string }>;
  close(): Promise<void>;
}

/**
 * The four domain services on the variant's bus and store, and the gateway app in front of
 * them (driven with `app.inject`, no port). The gateway uses its own transport, as a separate
 * process would.
 */
export async function startStack(
  variant: InfraVariant,
  options: {
    apiKeyCacheMs?: number;
    rateLimitPerMinute?: number;
    /** Failed authentications per minute per address (tests send many 401s from one address). */
    authFailuresPerMinute?: number;
    logger?: Logger;
    /** Faults at the services' writes (crash tests): the services get the store through storeWithFaults. */
    storeFaults?: WriteFaults;
    /** A fake around payments' sandbox transfer provider (a provider that refuses, a gate). */
    wrapTransfers?: (inner: TransferPort) => TransferPort;
    /** Gateway settings beyond the defaults below (PUBLIC_URL, CORS_ORIGINS). */
    gateway?: Pick<GatewayOptions, "publicUrl" | "corsOrigins" | "trustProxy" | "secureCookies" | "sharedLimits">;
    /** Environment variables for the services beyond the test defaults (limits, say). */
    env?: Record<string, string>;
  } = {},
): Promise<Stack> {
  const logger = options.logger ?? silentLogger();
  // A random SECRETS_KEY: no key file is written under DATA_DIR by tests.
  const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), DWOLLA_WEBHOOK_SECRET: WEBHOOK_SECRET, ...options.env });
  const serviceTransport = await variant.transport();
  const store = options.storeFaults ? storeWithFaults(await variant.store(), options.storeFaults) : await variant.store();
  await startServices(["identity", "checkout", "payments", "refunds"], {
    config,
    logger,
    transport: serviceTransport,
    store,
    ...(options.wrapTransfers ? { transfers: await sandboxTransfersThrough(store, options.wrapTransfers, { logger }) } : {}),
  });
  const transport = await variant.transport();
  const app = await buildApp({
    transport,
    logger,
    adminToken: ADMIN_TOKEN,
    apiKeyCacheMs: options.apiKeyCacheMs ?? 5_000,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    authFailuresPerMinute: options.authFailuresPerMinute ?? 100_000,
    services: ["identity", "checkout", "payments", "refunds"],
    sandbox: true,
    ...options.gateway,
  });
  await app.ready();
  return {
    app,
    transport,
    async merchant(name = "Test merchant") {
      const out = await transport.call(createMerchantOp, { name }, { requestId: "test", principal: { kind: "admin" } });
      return { id: out.merchant.id, apiKey: out.api_key };
    },
    close: () => app.close(),
  };
}

export interface TwoMerchants {
  stack: Stack;
  acme: { id: string; apiKey: string };
  globex: { id: string; apiKey: string };
}

/**
 * For a `describe` per variant: starts the stack and two merchants, Acme and Globex, before its
 * tests (unless the variant is skipped) and closes it all after. The fields are set by then.
 */
export function withTwoMerchants(variant: InfraVariant): TwoMerchants {
  const world = {} as TwoMerchants;
  beforeAll(async () => {
    if (variant.skipReason) return;
    world.stack = await startStack(variant);
    world.acme = await world.stack.merchant("Acme");
    world.globex = await world.stack.merchant("Globex");
  });
  afterAll(async () => {
    await world.stack?.close();
    await variant.cleanup();
  });
  return world;
}
