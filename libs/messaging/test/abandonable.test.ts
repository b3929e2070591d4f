import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createInProcessBus, createInProcessTransport, type Transport } from "../src/index.ts";
import { Abandonable } from "../src/in-process/abandonable.ts";
import type { InProcessEventConsumer } from "../src/in-process/in-process-event.queue.ts";
import { sampleEvents } from "./support/sample-events.ts";

// V8's own gc(), without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** How many of `refs` are still reachable, after a full collection (a WeakRef lives to the end of its job). */
async function stillReachable(refs: readonly WeakRef<object>[]): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

describe("Abandonable", () => {
  it("settles as its work does, and forgets the work once it has settled", async () => {
    const abandonable = new Abandonable("gave up");
    const done = abandonable.wrap(Promise.resolve("done"));
    const failed = abandonable.wrap(Promise.reject(new Error("boom")));
    expect(abandonable.size).toBe(2);
    await expect(done).resolves.toBe("done");
    await expect(failed).rejects.toThrow("boom");
    expect(abandonable.size).toBe(0);
  });

  it("settles the work still running with the abandoned value, and what is wrapped after at once", async () => {
    const abandonable = new Abandonable("gave up");
    let finish!: (value: string) => void;
    const running = abandonable.wrap(new Promise<string>((resolve) => (finish = resolve)));
    abandonable.abandonAll();
    await expect(running).resolves.toBe("gave up");
    finish("too late");
    await expect(abandonable.wrap(new Promise<string>(() => undefined))).resolves.toBe("gave up");
    expect(abandonable.size).toBe(0);
  });

  it("keeps nothing of settled work reachable: its wrapped promises are collected", async () => {
    const abandonable = new Abandonable("gave up");
    const refs: WeakRef<Promise<string>>[] = [];
    // In a function of its own: a suspended async frame may still hold its last local.
    const wrapSome = async () => {
      for (let i = 0; i < 100; i++) {
        const wrapped = abandonable.wrap(Promise.resolve(`work ${i}`));
        refs.push(new WeakRef(wrapped));
        await wrapped;
      }
    };
    await wrapSome();
    await expect.poll(() => stillReachable(refs)).toBe(0);
  });
});

describe("the in-process bus's deliveries", () => {
  const transports: Transport[] = [];
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
  });

  it("keep nothing reachable once handled: an event delivered is garbage, not a reaction kept until close", async () => {
    const bus = createInProcessBus();
    const queue = bus.eventQueue("keeper");
    const delivered: WeakRef<Promise<unknown>>[] = [];
    const addConsumer = queue.addConsumer.bind(queue);
    queue.addConsumer = (consumer: InProcessEventConsumer) =>
      addConsumer({
        ...consumer,
        deliver(message) {
          const outcome = consumer.deliver(message);
          delivered.push(new WeakRef(outcome));
          return outcome;
        },
      });
    for (let i = 0; i < 2; i++) transports.push(createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 1_000 }));
    const [publisher, subscriber] = transports as [Transport, Transport];
    let handled = 0;
    await subscriber.subscribe("keeper", ["refund.*"], async () => {
      handled += 1;
    });
    for (const event of sampleEvents(200)) await publisher.publish(event);
    await expect.poll(() => handled, { timeout: 10_000 }).toBe(200);
    await expect.poll(() => delivered.length).toBe(200);

    // Polled: the last deliveries settle (and the queue acks them) a few turns after their handlers ran.
    await expect.poll(() => stillReachable(delivered), { timeout: 5_000 }).toBe(0);
  });
});
