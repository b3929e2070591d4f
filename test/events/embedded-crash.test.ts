import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createInProcessTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, createEventDeadLetters, createEventQueues, withIndexCheck } from "@payrail/store";
import { sampleEvent } from "../../libs/messaging/test/support/sample-events.ts";
import { killed, runChildScript } from "../support/child-script.ts";

const CHILD = join(import.meta.dirname, "embedded-events.child.ts");

/** Starts the child and resolves with it once its output contains every one of `lines`. */
function runChild(env: NodeJS.ProcessEnv, lines: string[], timeoutMs = 30_000) {
  return runChildScript(CHILD, env, lines, timeoutMs);
}

describe("embedded mode: an event survives a crash between publish and handling", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("is handled after a restart when the process was SIGKILLed with its outbox already marked sent", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-crash-"));
    dirs.push(dataDir);
    const event = sampleEvent("refund.requested");

    // The handler ran past the handoff's wait, so the bus kept a copy and the relay emptied the outbox: kill -9.
    const first = await runChild({ DATA_DIR: dataDir, MODE: "hang", EVENT: JSON.stringify(event), HANDOFF_WAIT_MS: "200" }, ["marked", `handling ${event.id}`]);
    await killed(first.child);

    // Restarted: nothing in any outbox, yet the subscriber gets the event.
    const second = await runChild({ DATA_DIR: dataDir, MODE: "handle" }, [`handled ${event.id}`], 20_000);
    expect(second.output().match(new RegExp(`handled ${event.id}`, "g"))).toHaveLength(1);
    second.child.kill("SIGTERM");
  }, 60_000);

  it("is handled once after a restart when SIGKILLed while its handler ran, before any copy was kept: its outbox still held it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-handoff-crash-"));
    dirs.push(dataDir);
    const event = sampleEvent("refund.requested");

    // Handed straight to the running ledger, whose handler hangs; the wait for a copy is far off: kill -9.
    const first = await runChild({ DATA_DIR: dataDir, MODE: "hang", EVENT: JSON.stringify(event), HANDOFF_WAIT_MS: "600000" }, [`handling ${event.id}`]);
    await killed(first.child);
    expect(first.output()).not.toContain("marked");

    // What the crash left: the event in its order's outbox, no copy in the queue.
    const store = createEmbeddedStore({ dir: dataDir, logger: silentLogger() });
    const order = await store.collection<{ _id: string; outboxPending?: boolean; _outbox?: Record<string, unknown> }>("orders").findOne({ _id: "order-1" });
    expect(order?.outboxPending).toBe(true);
    expect(Object.keys(order?._outbox ?? {})).toEqual([event.id]);
    expect(await store.collection("event_queue").countDocuments({})).toBe(0);
    await store.close();

    // Restarted: the relay publishes it again and the subscriber handles it once.
    const second = await runChild({ DATA_DIR: dataDir, MODE: "handle" }, [`handled ${event.id}`], 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.output().match(new RegExp(`handled ${event.id}`, "g"))).toHaveLength(1);
    second.child.kill("SIGTERM");
  }, 60_000);

  it("keeps a service's bindings across a restart: what is published before it subscribes again waits for it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-bindings-"));
    dirs.push(dataDir);
    const logger = silentLogger();
    const open = async () => {
      const store = withIndexCheck(createEmbeddedStore({ dir: dataDir, logger }), { mode: "enforce" });
      const transport = createInProcessTransport({ logger });
      await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), queues: await createEventQueues(store) });
      return { store, transport, close: async () => (await transport.close(), await store.close()) };
    };
    const before = await open();
    await before.transport.subscribe("ledger", ["refund.*"], async () => undefined);
    await before.close();

    // After the restart a relay publishes before the ledger has subscribed again (services start one by one).
    const after = await open();
    const event = sampleEvent("refund.approved");
    await after.transport.publish(event);
    const seen: string[] = [];
    await after.transport.subscribe("ledger", ["refund.*"], async (e) => void seen.push(e.id));
    await vi.waitFor(() => expect(seen).toEqual([event.id]), { timeout: 10_000, interval: 20 });
    await after.close();
  });
});
