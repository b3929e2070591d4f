import { INTERNAL_EVENT_TYPES } from "@payrail/contracts";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { deliveryStats } from "@payrail/webhooks";
import { createProcessMetrics } from "../../../bin/observability/process-metrics.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { payment } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();

/**
 * Issue 10's "done when", with payments publishing (issue 9): a merchant registers an endpoint
 * and receives transaction.completed after the sandbox simulation, verified with
 * standardwebhooks; the events services publish for each other never reach a merchant.
 */
describe.each(variants)("payment events reach the merchant's webhook over $name", (variant) => {
  const world = withWebhooksStack(variant);
  let merchant: { id: string; apiKey: string };
  /** The process's delivery counts before this variant's first delivery (the file's variants share the process). */
  let before: Record<string, number> = {};
  beforeAll(async () => {
    if (variant.skipReason) return;
    merchant = await world.stack.merchant("Initech");
    before = { ...deliveryStats.snapshot() };
  });
  const stackOf = () => world.stack;

  const headers = () => ({ "api-key": merchant.apiKey });

  describe.skipIf(!!variant.skipReason)("delivery", () => {
    it("delivers transaction.created and transaction.completed of a settled payment, each verified, and nothing internal", async () => {
      const reply = await stackOf().app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: world.receiver.url, enabled_events: ["*"] }, headers: headers() });
      expect(reply.statusCode).toBe(200);
      const { secret } = reply.json() as { secret: string };
      const p = await payment(stackOf(), merchant.apiKey, "completed");

      const verified = () =>
        world.receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: { object: Record<string, unknown> } });
      const completed = await eventually(async () => {
        const found = verified().find((e) => e.type === "transaction.completed" && e.data.object["transaction_uuid"] === p.uuid);
        expect(found).toBeDefined();
        return found!;
      });
      expect(completed.data.object).toMatchObject({ transaction_uuid: p.uuid, transaction_status: "completed", amount: 107.5 });
      expect(verified().filter((e) => e.type === "transaction.created" && e.data.object["transaction_uuid"] === p.uuid)).toHaveLength(1);
      // The same event in the events API, by the id the delivery carried.
      const listed = await stackOf().app.inject({ url: `/api/merchants/events/${completed.id}`, headers: headers() });
      expect(listed.json()).toMatchObject({ id: completed.id, type: "transaction.completed", data: { object: { transaction_uuid: p.uuid } } });

      const all = (await stackOf().app.inject({ url: "/api/merchants/events?limit=100", headers: headers() })).json() as { data: { type: string }[] };
      expect(all.data.map((e) => e.type)).toEqual(expect.arrayContaining(["checkout.created", "checkout.payment_method_saved", "transaction.created", "transaction.completed"]));
      for (const event of [...all.data, ...verified()]) expect(INTERNAL_EVENT_TYPES).not.toContain(event.type);
    });

    it("counts every delivery attempt in /metrics by outcome", async () => {
      // This variant has one endpoint, whose receiver answers 200 to everything.
      const metrics = createProcessMetrics(stackOf().transport);
      const counted = async (outcome: string) => {
        const line = new RegExp(`^payrail_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, "m").exec(await metrics.registry.metrics());
        return Number(line?.[1]) - (before[outcome] ?? 0);
      };
      try {
        await eventually(async () => {
          expect(await counted("succeeded")).toBe(world.receiver.received.length);
          expect(await counted("failed")).toBe(0);
        });
        expect(world.receiver.received.length).toBeGreaterThan(0);
      } finally {
        metrics.close();
      }
    });
  });
});
