import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { AppError, type DomainEvent } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, RETRY_DEFAULTS, retrySteps, type Transport } from "../src/index.ts";
import { closeConnectionsNamed, deleteEventTopology, rabbitmqctlWorks, randomQueuePrefix, readDeadLetters, withRawChannel } from "./support/amqp-admin.ts";
import { EVENT_TEST_SERVICES, SLOW } from "./support/events-contract.suite.ts";
import { IdempotentSubscriber } from "./support/idempotent-subscriber.ts";
import { sampleEvent } from "./support/sample-events.ts";

const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canUseCtl = broker.url !== undefined && (await rabbitmqctlWorks());

describe.skipIf(broker.url === undefined)("domain events over RabbitMQ under faults", () => {
  const url = broker.url ?? "";
  let prefix = randomQueuePrefix();
  let transports: Transport[] = [];

  /** A transport of this test, named so that the test can find (and close) its connection. */
  async function transport(role: string): Promise<Transport> {
    const options = { url, logger: silentLogger(), queuePrefix: prefix, connectionName: `payrail ${prefix}${role}` };
    const t = await createAmqpTransport({ ...options, defaultTimeoutMs: 5_000, closeGraceMs: 1_000 });
    transports.push(t);
    return t;
  }

  afterEach(async () => {
    await Promise.all(transports.map((t) => t.close()));
    transports = [];
    await deleteEventTopology(url, prefix, EVENT_TEST_SERVICES);
    prefix = randomQueuePrefix();
  });

  it.skipIf(!canUseCtl)("loses nothing when the broker closes both connections mid-stream: every event applied once", async () => {
    const ledger = new IdempotentSubscriber({ delayMs: 2 });
    await (await transport("subscriber")).subscribe("ledger", ["refund.*"], ledger.handler(), { prefetch: 20 });
    const publisher = await transport("publisher");

    // What the outbox relay will do: publish each event again until the broker confirms it.
    const produced: DomainEvent[] = [];
    let confirmed = 0;
    let failedPublishes = 0;
    let stop = false;
    const relay = async () => {
      while (!stop) {
        const event = sampleEvent();
        produced.push(event);
        for (;;) {
          try {
            await publisher.publish(event);
            confirmed += 1;
            break;
          } catch (err) {
            expect((err as AppError).code).toBe("service_unavailable");
            failedPublishes += 1;
            await vi.waitFor(() => expect(publisher.isReady()).toBe(true), SLOW);
          }
        }
      }
    };
    const relays = Array.from({ length: 4 }, relay);

    await vi.waitFor(() => expect(ledger.processed.size).toBeGreaterThan(300), SLOW);
    expect(await closeConnectionsNamed(`payrail ${prefix}`)).toBe(2);
    await vi.waitFor(() => expect(failedPublishes).toBeGreaterThan(0), SLOW);
    const atRecovery = confirmed;
    await vi.waitFor(() => expect(confirmed >= 1_000 && confirmed > atRecovery + 200).toBe(true), SLOW);
    stop = true;
    await Promise.all(relays);

    await vi.waitFor(() => expect(ledger.processed.size).toBe(produced.length), SLOW);
    expect(ledger.effects.sort()).toEqual(produced.map((e) => e.id).sort());
    expect(ledger.deliveries).toBeGreaterThanOrEqual(produced.length); // duplicates allowed, applied once
  });

  it("dead-letters at once, with the reason, a message that is not a valid event", async () => {
    const ledger = new IdempotentSubscriber();
    const subscriberSide = await transport("subscriber");
    await subscriberSide.subscribe("ledger", ["refund.*"], ledger.handler());
    await withRawChannel(url, async (channel) => {
      const exchange = `${prefix}payrail.events`;
      channel.publish(exchange, "refund.requested", Buffer.from("not json {"));
      const bad = { ...sampleEvent("refund.approved"), id: "evt_1" };
      channel.publish(exchange, "refund.approved", Buffer.from(JSON.stringify(bad)), { messageId: "evt_1", type: "refund.approved" });
      await channel.close(); // flushes the publishes: a connection.close could overtake them
    });

    await vi.waitFor(async () => expect(await readDeadLetters(url, prefix, "ledger")).toHaveLength(2), SLOW);
    const letters = await readDeadLetters(url, prefix, "ledger");
    expect(letters).toMatchObject([
      { id: undefined, reason: "not JSON", attempts: 1 },
      { id: "evt_1", type: "refund.approved", reason: "invalid event: id must be evt_ and 32 lowercase hex", attempts: 1 },
    ]);
    expect(ledger.deliveries).toBe(0);
    expect(subscriberSide.stats().events.deadLettered).toEqual({ invalid: 2 });
    expect(subscriberSide.stats().events.deadLetteredBy).toEqual([{ service: "ledger", cause: "invalid", count: 2 }]);
  });

  it.skipIf(!canUseCtl)("declares a durable topic exchange and, per service, durable main and dead queues and one retry tier per backoff step", async () => {
    await (await transport("subscriber")).subscribe("ledger", ["refund.*", "transaction.completed"], async () => undefined);
    const ctl = (...args: string[]) => promisify(execFile)("rabbitmqctl", ["-q", "--no-table-headers", ...args], { maxBuffer: 256 * 1024 * 1024 }).then(({ stdout }) => stdout);
    const mine = (text: string) => text.split("\n").filter((line) => line.includes(prefix)).sort();

    expect(mine(await ctl("list_exchanges", "name", "type", "durable"))).toEqual([`${prefix}payrail.events\ttopic\ttrue`]);
    const queues = mine(await ctl("list_queues", "name", "durable", "arguments"));
    // The default policy: 1 s doubling to 5 min, so 1, 2, 4 … 256 s and 300 s.
    const tiers = retrySteps(RETRY_DEFAULTS);
    expect(tiers).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000]);
    expect(queues).toHaveLength(2 + tiers.length);
    expect(queues[0]).toMatch(new RegExp(`^${prefix}ledger\\.events\\ttrue\\t\\[\\]$`));
    expect(queues[1]).toMatch(new RegExp(`^${prefix}ledger\\.events\\.dead\\ttrue\\t\\[\\]$`));
    for (const step of tiers) {
      const tier = queues.find((line) => line.startsWith(`${prefix}ledger.events.retry.${step}\t`));
      expect(tier).toContain(`{"x-message-ttl",${step}}`);
      expect(tier).toContain(`{"x-dead-letter-routing-key","${prefix}ledger.events"}`);
    }
    const bindings = mine(await ctl("list_bindings", "source_name", "destination_name", "routing_key")).filter((line) => line.startsWith(prefix));
    expect(bindings).toEqual([`${prefix}payrail.events\t${prefix}ledger.events\trefund.*`, `${prefix}payrail.events\t${prefix}ledger.events\ttransaction.completed`]);
  });

  it("fails a publish with service_unavailable when the broker is absent", async () => {
    const absent = await createAmqpTransport({ url: "amqp://guest:guest@127.0.0.1:1", logger: silentLogger() });
    const err = await absent.publish(sampleEvent()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("service_unavailable");
    expect(absent.stats().events.published).toEqual({});
    await absent.close();
  });
});

if (broker.url !== undefined && !canUseCtl) console.warn("broker outage and topology tests skipped: rabbitmqctl cannot reach the broker");
