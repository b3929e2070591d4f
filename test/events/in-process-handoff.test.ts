import { afterEach, describe, expect, it, vi } from "vitest";
import { createInProcessTransport, type Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, createEventDeadLetters, createEventQueues, EVENT_QUEUE, type Store } from "@payrail/store";
import { sampleEvent } from "../../libs/messaging/test/support/sample-events.ts";

interface QueuedDoc {
  _id: string;
  attempt: number;
  firstFailedAt?: number;
}

/**
 * The embedded bus hands an event straight to a service that consumes, and writes a copy in
 * its durable queue only when the service could not handle it at once: a failed attempt, or a
 * handler still running after the wait. A publish resolves only once each bound service
 * handled the event or has its copy.
 */
describe("in-process bus with durable queues: the handoff", () => {
  let store: Store;
  let transport: Transport;

  async function open(handoffWaitMs?: number) {
    store = createEmbeddedStore({ logger: silentLogger() });
    transport = createInProcessTransport({ logger: silentLogger(), handoffWaitMs, closeGraceMs: 100, eventRetry: { firstDelayMs: 1_500, maxDelayMs: 1_500 } });
    await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), queues: await createEventQueues(store) });
  }
  const queued = () => store.collection<QueuedDoc>(EVENT_QUEUE).find({}, { sort: { _id: 1 }, limit: 10 });

  afterEach(async () => {
    await transport.close();
    await store.close();
  });

  it("writes nothing to the queue for an event handled at once, and resolves the publish only after the handler", async () => {
    await open();
    const seenInQueue: number[] = [];
    const handled: string[] = [];
    await transport.subscribe("ledger", ["refund.*"], async (event) => {
      seenInQueue.push((await queued()).length);
      handled.push(event.id);
    });
    const event = sampleEvent("refund.requested");
    await transport.publish(event);
    expect(handled).toEqual([event.id]);
    expect(seenInQueue).toEqual([0]);
    expect(await queued()).toEqual([]);
  });

  it("keeps a copy with its next attempt and first failure before the publish resolves when the handler fails, and removes it once handled", async () => {
    await open();
    let attempts = 0;
    await transport.subscribe("ledger", ["refund.*"], async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("database away");
    });
    const event = sampleEvent("refund.requested");
    const before = Date.now();
    await transport.publish(event);
    // The retry comes 1.2–1.5 s after the failure: the copy is read long before.
    expect(attempts).toBe(1);
    const [copy, ...more] = await queued();
    expect(more).toEqual([]);
    expect(copy?._id).toBe(`ledger/${event.id}`);
    expect(copy?.attempt).toBe(2);
    expect(copy?.firstFailedAt).toBeGreaterThanOrEqual(before);
    await vi.waitFor(() => expect(attempts).toBe(2), { timeout: 5_000, interval: 20 });
    await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 5_000, interval: 20 });
  });

  it("keeps a copy once the handler has run past the wait, resolves the publish, and removes the copy when the handler finishes", async () => {
    await open(100);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    await transport.subscribe("ledger", ["refund.*"], async (event) => {
      await gate;
      handled.push(event.id);
    });
    const event = sampleEvent("refund.requested");
    const started = Date.now();
    await transport.publish(event);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(handled).toEqual([]);
    expect((await queued()).map((d) => d._id)).toEqual([`ledger/${event.id}`]);
    release();
    await vi.waitFor(() => expect(handled).toEqual([event.id]), { timeout: 5_000, interval: 20 });
    await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 5_000, interval: 20 });
  });

  it("hands to the services that consume and keeps a copy for one that has not subscribed yet", async () => {
    await open();
    await transport.subscribe("ledger", ["refund.*"], async () => undefined);
    await transport.subscribe("webhooks", ["refund.*"], async () => undefined);
    await transport.close();
    // As after a restart: both bindings are known, only the ledger consumes again so far.
    transport = createInProcessTransport({ logger: silentLogger() });
    await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), queues: await createEventQueues(store) });
    const ledger: string[] = [];
    await transport.subscribe("ledger", ["refund.*"], async (event) => void ledger.push(event.id));
    const event = sampleEvent("refund.approved");
    await transport.publish(event);
    expect(ledger).toEqual([event.id]);
    expect((await queued()).map((d) => d._id)).toEqual([`webhooks/${event.id}`]);
    const webhooks: string[] = [];
    await transport.subscribe("webhooks", ["refund.*"], async (e) => void webhooks.push(e.id));
    await vi.waitFor(() => expect(webhooks).toEqual([event.id]), { timeout: 5_000, interval: 20 });
    await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 5_000, interval: 20 });
  });

  it("rejects the publish, and keeps nothing, when the transport closes under a running handler: the event stays in its outbox", async () => {
    await open(60_000);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    await transport.subscribe("ledger", ["refund.*"], () => {
      started();
      return new Promise<void>(() => undefined);
    });
    const published = transport.publish(sampleEvent("refund.requested"));
    const outcome = published.then(
      () => "resolved",
      (err: Error) => err.message,
    );
    await running;
    await transport.close();
    expect(await outcome).toMatch(/ledger closed before it handled the event/);
    expect(await queued()).toEqual([]);
  });
});
