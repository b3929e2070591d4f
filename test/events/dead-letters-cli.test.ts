import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { AnyDomainEvent } from "@payrail/contracts";
import { createAmqpTransport, createInProcessTransport, EventCannotApply, type EventHandler, type Transport } from "@payrail/messaging";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, createEventDeadLetters, createEventQueues, withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl, uniqueTestDbName } from "@payrail/store/testing";
import { deleteEventTopology, randomQueuePrefix, withRawChannel } from "../../libs/messaging/test/support/amqp-admin.ts";
import { sampleEvent } from "../../libs/messaging/test/support/sample-events.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `payrail <args>` in a child process with exactly this store configuration. */
function payrail(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  const full: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", ...env };
  for (const key of ["AMQP_URL", "MONGODB_URL", "MONGODB_DB", "DATA_DIR", "SERVICES"]) if (!(key in env)) delete full[key];
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "bin/payrail.ts", ...args], { env: full, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A `ledger` subscriber that refuses `refused` ids as unknown aggregates until they are "fixed". */
function ledger(refused: Set<string>) {
  const applied: string[] = [];
  const handler: EventHandler = async (event: AnyDomainEvent) => {
    if (refused.has(event.id)) throw new EventCannotApply(`unknown refund ${event.aggregate.id}`);
    applied.push(event.id);
  };
  return { applied, handler };
}

const logger = silentLogger();
const broker = await amqpTestUrl();
const mongo = await mongoTestUrl();
afterAll(async () => {
  await broker.stop();
  await mongo.stop();
});
const skip = broker.skipReason ?? mongo.skipReason;
// Generous: the CLI runs in child processes, and the box is shared by several suites.
const SLOW = { timeout: 45_000, interval: 50 };

describe("payrail events dead-letters / replay", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it("refuses a malformed event id before opening anything, and asks for MONGODB_URL beside AMQP_URL", async () => {
    const [badId, noDatabase] = await Promise.all([
      payrail({ DATA_DIR: join(tmpdir(), "payrail-never-opened") }, "events", "replay", "--id", "evt_nope"),
      payrail({ AMQP_URL: "amqp://guest:guest@127.0.0.1:1" }, "events", "dead-letters"),
    ]);
    expect(badId).toMatchObject({ code: 2, stderr: expect.stringContaining("an event id is evt_ and 32 lowercase hex") });
    expect(noDatabase).toMatchObject({ code: 1, stderr: expect.stringContaining("dead letters live in the database: set MONGODB_URL") });
  }, 120_000);

  it("embedded: an event its handler cannot apply is dead-lettered at once, listed, replayed after the fix and applied at the next start", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-dead-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const event = sampleEvent("refund.requested");
    const open = async (refused: Set<string>) => {
      const store = withIndexCheck(createEmbeddedStore({ dir: dataDir, logger }), { mode: "enforce" });
      const transport = createInProcessTransport({ logger });
      await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), queues: await createEventQueues(store) });
      const subscriber = ledger(refused);
      await transport.subscribe("ledger", ["refund.*"], subscriber.handler);
      return { store, transport, subscriber, close: async () => (await transport.close(), await store.close()) };
    };

    const before = await open(new Set([event.id]));
    await before.transport.publish(event);
    const letters = await createEventDeadLetters(before.store);
    await vi.waitFor(async () => expect(await letters.list()).toHaveLength(1), SLOW);
    expect(before.transport.stats().events.deadLetteredBy).toEqual([{ service: "ledger", cause: "cannot_apply", count: 1 }]);
    await before.close();

    const env = { DATA_DIR: dataDir };
    const listed = await payrail(env, "events", "dead-letters");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ledger  ${event.id}  refund.requested  \\S+Z  unknown refund ${event.aggregate.id}$`, "m"));
    const replayed = await payrail(env, "events", "replay", "--id", event.id);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain(`ledger  ${event.id}  refund.requested: replay requested`);
    expect(replayed.stdout).toContain("1 queued: delivered when Payrail next starts");

    const after = await open(new Set()); // the fix is deployed
    await vi.waitFor(() => expect(after.subscriber.applied).toEqual([event.id]), SLOW);
    await vi.waitFor(async () => expect((await createEventDeadLetters(after.store)).list({ status: "replayed" })).resolves.toHaveLength(1), SLOW);
    await after.close();
    expect((await payrail(env, "events", "dead-letters")).stdout).toContain("no dead events");
  }, 240_000);

  it.skipIf(skip !== undefined)("RabbitMQ + MongoDB: an invalid message and an unknown aggregate are dead-lettered at once, listed, and replayed to the running subscriber", async () => {
    const dbName = uniqueTestDbName();
    const queuePrefix = randomQueuePrefix();
    const store: Store = withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
    cleanups.push(async () => (await store.drop(), await store.close()));
    const transport: Transport = await createAmqpTransport({ url: broker.url!, logger, queuePrefix, defaultTimeoutMs: 5_000, closeGraceMs: 500 });
    cleanups.push(() => deleteEventTopology(broker.url!, queuePrefix, ["ledger"]), () => transport.close());
    await transport.useEventStores({ deadLetters: await createEventDeadLetters(store) });
    const event = sampleEvent("refund.approved");
    const refused = new Set([event.id]);
    const subscriber = ledger(refused);
    await transport.subscribe("ledger", ["refund.*"], subscriber.handler, { replayPollMs: 200 });

    await transport.publish(event);
    await withRawChannel(broker.url!, async (channel) => {
      channel.publish(`${queuePrefix}payrail.events`, "refund.requested", Buffer.from("not json {"));
      await channel.close();
    });
    const letters = await createEventDeadLetters(store);
    await vi.waitFor(async () => expect(await letters.list()).toHaveLength(2), SLOW);

    const env = { AMQP_URL: broker.url!, MONGODB_URL: mongo.url!, MONGODB_DB: dbName };
    const listed = await payrail(env, "events", "dead-letters", "--service", "ledger");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ledger  ${event.id}  refund.approved  \\S+Z  unknown refund ${event.aggregate.id}$`, "m"));
    expect(listed.stdout).toMatch(/^ledger {2}- {2}- {2}\S+Z {2}not JSON$/m);

    refused.clear(); // the fix is deployed
    const replayed = await payrail(env, "events", "replay", "--service", "ledger");
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain("2 queued: each subscribing service re-sends its own within seconds");
    await vi.waitFor(() => expect(subscriber.applied).toEqual([event.id]), SLOW);
    await vi.waitFor(async () => expect(await letters.list({ status: "replayed" })).toHaveLength(1), SLOW);
    // The message that is no event is dead again, with its reason: no replay can fix it.
    await vi.waitFor(async () => expect((await letters.list()).map((l) => l.reason)).toEqual(["not JSON"]), SLOW);
    expect(subscriber.applied).toEqual([event.id]);
  }, 240_000);
});
