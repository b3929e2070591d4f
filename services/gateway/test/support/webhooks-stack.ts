import { randomBytes } from "node:crypto";
import { loadConfig, silentLogger, type ServiceName } from "@payrail/runtime";
import { afterAll, beforeAll } from "vitest";
import { startServices } from "../../../../bin/wiring.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../../test/support/stack.ts";
import { startReceiver, type Receiver } from "../../../../test/support/webhook-receiver.ts";

/** The gateway and every service, the webhooks service with a fast retry schedule, and a local receiver. */
export interface WebhooksStack {
  stack: Stack;
  receiver: Receiver;
}

/**
 * Starts a WebhooksStack before the suite's tests and stops it after them; the returned object
 * is filled in by then. `webhooksEnv` adds variables for the webhooks service (its URL rules);
 * `alsoStart` names further services to run beside it (notices). A variant that cannot run
 * leaves it empty (its tests are skipped).
 */
export function withWebhooksStack(variant: InfraVariant, webhooksEnv: Record<string, string> = {}, alsoStart: readonly ServiceName[] = []): WebhooksStack {
  const world = {} as WebhooksStack;
  let webhooks: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    if (variant.skipReason) return;
    world.stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), WEBHOOK_RETRY_SCHEDULE: "100ms,100ms", WEBHOOK_TIMEOUT: "2s", ...webhooksEnv });
    webhooks = await startServices(["webhooks", ...alsoStart], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    world.receiver = await startReceiver();
  });
  afterAll(async () => {
    await world.receiver?.close();
    for (const service of webhooks) await service.stop();
    await world.stack?.close();
    await variant.cleanup();
  });
  return world;
}
