import { createWebhookEndpointOp, getEventOp, listEventsOp } from "@payrail/contracts";
import type { AttemptDoc, DeliveryDoc } from "../src/domain/delivery.entity.ts";
import type { EventDoc } from "../src/domain/webhook-event.entity.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();
const DAY = 24 * 3_600_000;

describe.each(variants)("events kept 30 days over $name", (variant) => {
  let h: WebhooksHarness;
  let receiver: Receiver;
  /** The service's clock runs this far ahead of the real one. */
  const clock = { aheadMs: 0 };

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant, { now: () => new Date(Date.now() + clock.aheadMs), purgeEveryMs: 100 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.stop();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("hides an event once it is 30 days old, then purges it with its deliveries and attempts", async () => {
    const m = merchant();
    const endpoint = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
    const event = refundEvent(m);
    await h.publish(event);
    await until("the delivery", () => receiver.of(event.id).length === 1);
    const deliveryId = `${event.id}.${endpoint.id}`;
    const stored = (collection: string, _id: string) => h.store.collection(collection).findOne({ _id });
    await until("the attempt's record", async () => (await stored("webhook_attempts", `${deliveryId}.1`)) !== null);
    clock.aheadMs = 29 * DAY;
    expect((await h.client.call(getEventOp, { id: event.id }, as(m))).id).toBe(event.id);

    clock.aheadMs = 30 * DAY + 60_000;
    expect(await codeOf(h.client.call(getEventOp, { id: event.id }, as(m)))).toBe("resource_missing");
    expect((await h.client.call(listEventsOp, { limit: 10 }, as(m))).data).toEqual([]);
    await until("the purge", async () => (await stored("webhook_events", event.id)) === null);
    await until("the deliveries' purge", async () => (await stored("webhook_deliveries", deliveryId)) === null && (await stored("webhook_attempts", `${deliveryId}.1`)) === null);
  });
});

// Variants of their own: the suite above closes its stores when it ends.
describe.each(await infraVariants())("the retention purge keeps up over $name", (variant) => {
  let h: WebhooksHarness;
  // Five batches of 50 show the catching up as well as more would: the writes are what costs
  // (three per event, and as many deletes), and 1,000 events outlasted the suite's 30 s on the
  // Mongo-wire store at a load average of 20. The catching up at scale is libs/store's
  // retention tests' part (10^5 records).
  const OLD = 250;
  const BATCH = 50;
  afterAll(async () => {
    await h?.stop();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)(`deletes ${OLD} old events, deliveries and attempts in one purge, batch after batch`, async () => {
    const store = await variant.store();
    // A millisecond apart: a batch ends inside the old ones, never on a tie that takes them all.
    const at = (i: number) => new Date(Date.now() - 31 * DAY + i).toISOString();
    const recent = new Date().toISOString();
    const m = merchant();
    const events = store.collection<EventDoc>("webhook_events");
    const deliveries = store.collection<DeliveryDoc>("webhook_deliveries");
    const attempts = store.collection<AttemptDoc>("webhook_attempts");
    const write = async (i: number, createdAt: string) => {
      const eventId = `evt_${i.toString(16).padStart(32, "0")}`;
      const deliveryId = `${eventId}.we_old`;
      await events.insertOne({ _id: eventId, merchantId: m.merchantId, type: "refund.completed", group: "refund", createdAt, livemode: false, body: "{}" });
      await deliveries.insertOne({ _id: deliveryId, eventId, eventType: "refund.completed", endpointId: "we_old", merchantId: m.merchantId, status: "succeeded", attempts: 1, dueAt: createdAt, leaseId: null, createdAt, updatedAt: createdAt });
      await attempts.insertOne({ _id: `${deliveryId}.1`, deliveryId, endpointId: "we_old", eventId, eventType: "refund.completed", attempt: 1, ok: true, httpStatus: 200, durationMs: 1, error: null, responseBody: null, attemptedAt: createdAt, nextRetryAt: null });
    };
    await Promise.all(Array.from({ length: 16 }, async (_, w) => {
      for (let i = w; i < OLD; i += 16) await write(i, at(i));
    }));
    await write(OLD, recent);

    // Passes of BATCH, and the next hourly purge an hour away: only catching up at once gets there.
    h = await startWebhooks(variant, { purgeBatch: BATCH, purgeEveryMs: 3_600_000 });
    const left = async () => (await events.countDocuments({ createdAt: { $lt: recent } })) + (await deliveries.countDocuments({ createdAt: { $lt: recent } })) + (await attempts.countDocuments({ attemptedAt: { $lt: recent } }));
    await until("the purge", async () => (await left()) === 0);
    expect(await events.countDocuments({ createdAt: { $gte: recent } })).toBe(1);
    expect(await attempts.countDocuments({ attemptedAt: { $gte: recent } })).toBe(1);
  });
});
