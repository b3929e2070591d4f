import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createWebhookEndpointOp, listDeliveriesOp } from "@payrail/contracts";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { FAST_POLICY, as, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

/*
 * A delivery's claim is a 2 s lease renewed by a heartbeat while its attempt runs. An endpoint
 * that takes 7 s to answer must still get the event once, though two other replicas poll
 * every 50 ms for due deliveries; and a worker whose claim was taken over while it waited for
 * the answer records nothing (the worker that took the delivery over records its own attempt).
 */

const variants = await infraVariants();
/** Long enough for renewals through a busy FerretDB (a write may take hundreds of ms there). */
const LEASE_MS = 2_000;
const ANSWER_AFTER_MS = 3.5 * LEASE_MS;

/** A receiver that answers 200 after ANSWER_AFTER_MS, calling `onRequest` as a request arrives. */
async function slowReceiver(onRequest: (eventId: string) => Promise<void> | void) {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume().on("end", () => {
      const eventId = String(req.headers["webhook-id"]);
      received.push(eventId);
      void Promise.resolve(onRequest(eventId))
        .then(() => sleep(ANSWER_AFTER_MS))
        .then(() => res.writeHead(200).end("ok"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    of: (eventId: string) => received.filter((id) => id === eventId),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(variants)("a webhook delivery's lease over $name", (variant) => {
  let h: WebhooksHarness;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant, { policy: { ...FAST_POLICY, timeoutMs: 10_000, leaseMs: LEASE_MS } });
    await h.replica();
    await h.replica();
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await h?.stop();
    await variant.cleanup();
  });

  const deliveries = () => uncheckedStore(h.store).collection<{ _id: string; leaseId: string | null; status: string }>("webhook_deliveries");

  describe.skipIf(!!variant.skipReason)("three replicas", () => {
    it("sends to an endpoint slower than the lease once: the claim is renewed while it waits", async () => {
      const receiver = await slowReceiver(() => undefined);
      closers.push(receiver.close);
      const m = merchant();
      const endpoint = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
      const event = refundEvent(m);
      await h.publish(event);
      await until("the attempt's record", async () => (await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m))).data.length > 0, 15_000);
      // The delivery is done (no replica may take it over any more); a takeover while the slow
      // answer was awaited would have sent its own request before this record (local HTTP, ms).
      await until("the delivery to be done", async () => (await deliveries().findOne({ _id: `${event.id}.${endpoint.id}` }))?.status === "succeeded");
      expect(receiver.of(event.id)).toHaveLength(1);
      const { data } = await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m));
      expect(data.map((a) => [a.attempt, a.status, a.http_status])).toEqual([[1, "succeeded", 200]]);
    }, 30_000);

    it("records nothing for an attempt whose claim was taken over while it waited for the answer", async () => {
      const m = merchant();
      const receiver = await slowReceiver(async (eventId) => {
        // Another worker takes the delivery over while this attempt waits.
        await deliveries().findOneAndUpdate(
          { _id: `${eventId}.${endpoint!.id}` },
          { $set: { leaseId: "thief", dueAt: new Date(Date.now() + 60_000).toISOString() } },
        );
      });
      closers.push(receiver.close);
      const endpoint: { id: string } | undefined = await h.client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
      const event = refundEvent(m);
      await h.publish(event);
      await until("the attempt", () => receiver.of(event.id).length === 1, 15_000);
      // Past the receiver's answer, and time for the worker to act on it: an attempt it wrongly
      // recorded would show below (nothing marks "not recorded").
      await sleep(ANSWER_AFTER_MS + 1_500);
      // The answer came, but the worker had lost its claim: no attempt, the thief's claim stands.
      expect((await h.client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m))).data).toEqual([]);
      expect(await deliveries().findOne({ _id: `${event.id}.${endpoint.id}` })).toMatchObject({ leaseId: "thief", status: "pending" });
      expect(receiver.of(event.id)).toHaveLength(1);
    }, 30_000);
  });
});
