import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createInProcessBus, createInProcessTransport, type Transport } from "../src/index.ts";
import { HIGH_WATER } from "../src/in-process/in-process-event.queue.ts";
import { sampleEvents } from "./support/sample-events.ts";

const transports: Transport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

function transportOn(bus: ReturnType<typeof createInProcessBus>): Transport {
  const transport = createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 1_000 });
  transports.push(transport);
  return transport;
}

/** Lets every pending setImmediate and promise run, a few rounds deep. */
async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("the in-process bus's flow control", () => {
  it("makes a publish wait while a consumed queue holds its high-water mark of events, and lets it go once the consumer catches up", async () => {
    const bus = createInProcessBus();
    const publisher = transportOn(bus);
    const subscriber = transportOn(bus);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const handled: string[] = [];
    await subscriber.subscribe("slow", ["refund.*"], async (event) => {
      await gate;
      handled.push(event.id);
    }, { prefetch: 1 });

    const events = sampleEvents(HIGH_WATER + 50);
    // One in flight, HIGH_WATER ready: every publish up to there is held at once.
    const first = events.slice(0, HIGH_WATER + 1);
    for (const event of first) {
      await publisher.publish(event);
      await settle(1);
    }
    let late = false;
    const rest = (async () => {
      for (const event of events.slice(HIGH_WATER + 1)) await publisher.publish(event);
      late = true;
    })();
    await settle(20);
    expect(late).toBe(false);

    open();
    await rest;
    expect(late).toBe(true);
    await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(events.length);
    // Held back, not dropped nor reordered.
    expect(handled).toEqual(events.map((e) => e.id));
  });

  it("never holds a publish for a queue no consumer takes from (its service is down), since nothing would empty it", async () => {
    const bus = createInProcessBus();
    const publisher = transportOn(bus);
    const subscriber = createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 1_000 });
    await subscriber.subscribe("away", ["refund.*"], async () => undefined);
    await subscriber.close();

    for (const event of sampleEvents(HIGH_WATER * 2)) await publisher.publish(event);

    // They wait in the bound queue for the service to come back.
    const back = transportOn(bus);
    let handled = 0;
    await back.subscribe("away", ["refund.*"], async () => void handled++);
    await expect.poll(() => handled, { timeout: 10_000 }).toBe(HIGH_WATER * 2);
  });

  it("lets a held publish go when its queue loses its last consumer (the subscriber's transport closes)", async () => {
    const bus = createInProcessBus();
    const publisher = transportOn(bus);
    const subscriber = createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 50 });
    await subscriber.subscribe("stuck", ["refund.*"], () => new Promise(() => undefined), { prefetch: 1 });
    const events = sampleEvents(HIGH_WATER + 2);
    let done = 0;
    const publishing = (async () => {
      for (const event of events) {
        await publisher.publish(event);
        done++;
        await settle(1);
      }
    })();
    await expect.poll(() => done, { timeout: 10_000 }).toBe(HIGH_WATER + 1);
    await settle(20);
    expect(done).toBe(HIGH_WATER + 1);

    await subscriber.close();
    await publishing;
    expect(done).toBe(events.length);
  });
});
