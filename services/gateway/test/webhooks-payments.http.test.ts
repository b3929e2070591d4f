import { randomBytes } from "node:crypto";
import { INTERNAL_EVENT_TYPES } from "@payrail/contracts";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProcessMetrics } from "../../../bin/observability/process-metrics.ts";
import { startServices } from "../../../bin/wiring.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { payment } from "./support/refund-flow.ts";

const variants = await infraVariants();

/**
 * Issue 10's "done when", with payments publishing (issue 9): a merchant registers an endpoint
 * and receives transaction.completed after the sandbox simulation, verified with
 * standardwebhooks; the events services publish for each other never reach a merchant.
 */
describe.each(variants)("payment events reach the merchant's webhook over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };
  let receiver: Receiver;
  let webhooks: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), WEBHOOK_RETRY_SCHEDULE: "100ms,100ms", WEBHOOK_TIMEOUT: "2s" });
    webhooks = await startServices(["webhooks"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    merchant = await stack.merchant("Initech");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    for (const service of webhooks) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const headers = () => ({ "api-key": merchant.apiKey });

  describe.skipIf(!!variant.skipReason)("delivery", () => {
    it("delivers transaction.created and transaction.completed of a settled payment, each verified, and nothing internal", async () => {
      const reply = await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: receiver.url, enabled_events: ["*"] }, headers: headers() });
      expect(reply.statusCode).toBe(200);
      const { secret } = reply.json() as { secret: string };
      const p = await payment(stack, merchant.apiKey, "completed");

      const verified = () =>
        receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: { object: Record<string, unknown> } });
      const completed = await eventually(async () => {
        const found = verified().find((e) => e.type === "transaction.completed" && e.data.object["transaction_uuid"] === p.uuid);
        expect(found).toBeDefined();
        return found!;
      });
      expect(completed.data.object).toMatchObject({ transaction_uuid: p.uuid, transaction_status: "completed", amount: 107.5 });
      expect(verified().filter((e) => e.type === "transaction.created" && e.data.object["transaction_uuid"] === p.uuid)).toHaveLength(1);
      // The same event in the events API, by the id the delivery carried.
      const listed = await stack.app.inject({ url: `/api/merchants/events/${completed.id}`, headers: headers() });
      expect(listed.json()).toMatchObject({ id: completed.id, type: "transaction.completed", data: { object: { transaction_uuid: p.uuid } } });

      const all = (await stack.app.inject({ url: "/api/merchants/events?limit=100", headers: headers() })).json() as { data: { type: string }[] };
      expect(all.data.map((e) => e.type)).toEqual(expect.arrayContaining(["checkout.created", "checkout.payment_method_saved", "transaction.created", "transaction.completed"]));
      for (const event of [...all.data, ...verified()]) expect(INTERNAL_EVENT_TYPES).not.toContain(event.type);
    });

    it("counts every delivery attempt in /metrics by outcome", async () => {
      // This file's process has one endpoint, whose receiver answers 200 to everything.
      const metrics = createProcessMetrics(stack.transport);
      try {
        await eventually(async () => {
          const text = await metrics.registry.metrics();
          expect(text).toContain(`payrail_webhook_attempts_total{outcome="succeeded"} ${receiver.received.length}`);
          expect(text).toContain('payrail_webhook_attempts_total{outcome="failed"} 0');
        });
        expect(receiver.received.length).toBeGreaterThan(0);
      } finally {
        metrics.close();
      }
    });
  });
});
