import {
  createWebhookEndpointOp,
  deleteWebhookEndpointOp,
  getEventOp,
  getWebhookEndpointOp,
  listDeliveriesOp,
  listEventsOp,
  listWebhookEndpointsOp,
  redeliverEventOp,
  rotateWebhookSecretOp,
  updateWebhookEndpointOp,
} from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

describe.each(variants)("events API and endpoints over $name", (variant) => {
  let h: WebhooksHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.stop();
    await variant.cleanup();
  });

  /** Publishes events of `m` and waits until the events API lists them all. */
  async function published(m: ReturnType<typeof merchant>, types: ("refund.requested" | "refund.approved")[]) {
    const events = [];
    for (const type of types) {
      const event = refundEvent(m, type);
      await h.publish(event);
      events.push(event);
      // Distinct created_at values keep "newest first" unambiguous.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await until("the events to be kept", async () => (await h.client.call(listEventsOp, { limit: 100 }, as(m))).data.length === types.length);
    return events;
  }

  describe.skipIf(!!variant.skipReason)("events API", () => {
    it("lists the merchant's events newest first, pages with starting_after, filters by type and refund.*", async () => {
      const m = merchant();
      const events = await published(m, ["refund.requested", "refund.approved", "refund.requested"]);
      const newestFirst = [...events].reverse().map((e) => e.id);
      const all = await h.client.call(listEventsOp, { limit: 100 }, as(m));
      expect(all.data.map((e) => e.id)).toEqual(newestFirst);
      expect(all.has_more).toBe(false);
      const page1 = await h.client.call(listEventsOp, { limit: 2 }, as(m));
      expect(page1).toMatchObject({ has_more: true });
      const page2 = await h.client.call(listEventsOp, { limit: 2, starting_after: page1.data[1]!.id }, as(m));
      expect([...page1.data, ...page2.data].map((e) => e.id)).toEqual(newestFirst);
      expect(page2.has_more).toBe(false);
      const requested = await h.client.call(listEventsOp, { limit: 100, type: "refund.requested" }, as(m));
      expect(requested.data.map((e) => e.id)).toEqual([events[2]!.id, events[0]!.id]);
      expect((await h.client.call(listEventsOp, { limit: 100, type: "refund.*" }, as(m))).data).toHaveLength(3);
      expect((await h.client.call(listEventsOp, { limit: 100, type: "checkout.*" }, as(m))).data).toHaveLength(0);
      for (const event of all.data) expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "livemode", "type"]);
    });

    it("another merchant's events are invisible: absent from the list, 404 to get or redeliver, 400 as a cursor", async () => {
      const owner = merchant();
      const [event] = await published(owner, ["refund.approved"]);
      const other = merchant();
      expect((await h.client.call(listEventsOp, { limit: 100 }, as(other))).data).toEqual([]);
      expect(await codeOf(h.client.call(getEventOp, { id: event!.id }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(redeliverEventOp, { id: event!.id }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(listEventsOp, { limit: 10, starting_after: event!.id }, as(other)))).toBe("parameter_invalid");
      expect(await codeOf(h.client.call(getEventOp, { id: "evt_nope" }, as(owner)))).toBe("resource_missing");
      expect((await h.client.call(getEventOp, { id: event!.id }, as(owner))).id).toBe(event!.id);
    });

    it("refuses a consumer's principal", async () => {
      const user = { kind: "user" as const, userId: "u".repeat(32), phone: "+14155550000" };
      expect(await codeOf(h.client.call(listEventsOp, { limit: 10 }, as(user)))).toBe("permission_denied");
    });
  });

  describe.skipIf(!!variant.skipReason)("webhook endpoints", () => {
    it("creates, lists, gets, updates, disables and deletes; the secret is shown on create and rotation only", async () => {
      const m = merchant();
      const created = await h.client.call(
        createWebhookEndpointOp,
        { url: receiver.url, enabled_events: ["refund.*", "refund.*"], description: "orders" },
        as(m),
      );
      expect(created).toMatchObject({ id: expect.stringMatching(/^we_[0-9a-f]{32}$/), url: receiver.url, enabled_events: ["refund.*"], status: "enabled", description: "orders", livemode: false });
      const { secret, ...shown } = created;
      expect(secret).toMatch(/^whsec_/);
      expect(await h.client.call(getWebhookEndpointOp, { id: created.id }, as(m))).toEqual(shown);
      expect(await h.client.call(listWebhookEndpointsOp, { limit: 10 }, as(m))).toEqual({ data: [shown], has_more: false });

      const disabled = await h.client.call(updateWebhookEndpointOp, { id: created.id, status: "disabled", enabled_events: ["*"], description: null }, as(m));
      expect(disabled).toMatchObject({ status: "disabled", enabled_events: ["*"], description: null });
      const event = refundEvent(m);
      await h.publish(event);
      await until("the event to be kept", async () => (await h.client.call(listEventsOp, { limit: 10 }, as(m))).data.length === 1);
      expect(await h.client.call(redeliverEventOp, { id: event.id }, as(m))).toEqual({ id: event.id, webhook_endpoints: [] });
      // The answer above already says no endpoint; 300 ms (six worker polls) checks nothing was sent anyway.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.of(event.id)).toHaveLength(0);

      await h.client.call(updateWebhookEndpointOp, { id: created.id, status: "enabled" }, as(m));
      expect(await h.client.call(redeliverEventOp, { id: event.id }, as(m))).toEqual({ id: event.id, webhook_endpoints: [created.id] });
      await until("the redelivery", () => receiver.of(event.id).length === 1);

      expect(await h.client.call(deleteWebhookEndpointOp, { id: created.id }, as(m))).toEqual({ id: created.id, deleted: true });
      expect(await codeOf(h.client.call(getWebhookEndpointOp, { id: created.id }, as(m)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(deleteWebhookEndpointOp, { id: created.id }, as(m)))).toBe("resource_missing");
    });

    it("another merchant's endpoint is a 404 for every operation, and is never listed", async () => {
      const owner = merchant();
      const endpoint = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(owner));
      const other = merchant();
      const id = endpoint.id;
      expect(await codeOf(h.client.call(getWebhookEndpointOp, { id }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(updateWebhookEndpointOp, { id, status: "disabled" }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(rotateWebhookSecretOp, { id }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(listDeliveriesOp, { id, limit: 10 }, as(other)))).toBe("resource_missing");
      expect(await codeOf(h.client.call(deleteWebhookEndpointOp, { id }, as(other)))).toBe("resource_missing");
      expect((await h.client.call(listWebhookEndpointsOp, { limit: 10 }, as(other))).data).toEqual([]);
      expect((await h.client.call(getWebhookEndpointOp, { id }, as(owner))).status).toBe("enabled");
    });

    it("refuses bad input: unknown event types, non-http URLs, link-local (metadata) addresses even in the sandbox", async () => {
      const m = merchant();
      const create = (body: unknown) => codeOf(h.client.call(createWebhookEndpointOp, body as never, as(m)));
      expect(await create({ url: receiver.url, enabled_events: ["refund.exploded"] })).toBe("parameter_invalid");
      expect(await create({ url: receiver.url, enabled_events: [] })).not.toBe("resolved");
      expect(await create({ url: "ftp://example.com/x", enabled_events: ["*"] })).not.toBe("resolved");
      expect(await create({ url: "http://169.254.169.254/latest/meta-data", enabled_events: ["*"] })).toBe("parameter_invalid");
      // The sandbox takes loopback, for a receiver on the developer's machine.
      expect(await create({ url: "http://localhost:3000/hooks", enabled_events: ["*"] })).toBe("resolved");
    });

    it("keeps endpoint secrets sealed at rest", async () => {
      const m = merchant();
      const created = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
      const stored = await h.store.collection<{ _id: string; secret: string }>("webhook_endpoints").findOne({ _id: created.id });
      expect(JSON.stringify(stored)).not.toContain(created.secret.slice("whsec_".length));
      expect(stored!.secret).toMatch(/^v1\./);
    });
  });
});
