import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@payrail/contracts";
import { silentLogger, type Logger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, type ReplyMode, type Transport } from "../src/index.ts";
import { closeConnectionsInOrder, closeConnectionsNamed, deleteQueues, rabbitmqctlWorks, randomQueuePrefix, withRawChannel } from "./support/amqp-admin.ts";
import { anonymousCtx, echoHandlers, sayEcho } from "./support/echo.operations.ts";
import { memoryLedger } from "./support/memory-ledger.ts";
import { memoryLogger } from "./support/memory-logger.ts";

const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canForceClose = broker.url !== undefined && (await rabbitmqctlWorks());

describe.skipIf(broker.url === undefined)("RabbitMQ transport under faults", () => {
  const url = broker.url ?? "";
  let queuePrefix = "";
  let transports: Transport[] = [];

  async function transport(options: { logger?: Logger; replyMode?: ReplyMode; name?: string } = {}): Promise<Transport> {
    const t = await createAmqpTransport({
      url,
      logger: options.logger ?? silentLogger(),
      queuePrefix,
      replyMode: options.replyMode ?? "exclusive-queue",
      connectionName: `payrail ${queuePrefix}${options.name ?? ""}`,
      defaultTimeoutMs: 3_000,
      closeGraceMs: 1_000,
    });
    transports.push(t);
    return t;
  }

  afterEach(async () => {
    await Promise.all(transports.map((t) => t.close()));
    transports = [];
    await deleteQueues(url, [`${queuePrefix}echo.rpc`]);
  });

  it("drops poison messages once each, replying when it can, and keeps answering", async () => {
    queuePrefix = randomQueuePrefix();
    const { logger, lines } = memoryLogger();
    await (await transport({ logger })).serve("echo", echoHandlers("a"));
    const client = await transport();
    const queue = `${queuePrefix}echo.rpc`;
    const replies = new Map<string, unknown>();
    await withRawChannel(url, async (channel) => {
      await channel.consume("amq.rabbitmq.reply-to", (m) => m && replies.set(m.properties.correlationId, JSON.parse(m.content.toString())), { noAck: true });
      const send = (body: string, correlationId?: string) =>
        channel.sendToQueue(queue, Buffer.from(body), correlationId ? { correlationId, replyTo: "amq.rabbitmq.reply-to" } : {});
      const envelope = (pattern: string) => JSON.stringify({ pattern, requestId: "r", principal: { kind: "anonymous" }, payload: {} });
      send("not json {", "p1");
      send("not json, nowhere to reply");
      send(JSON.stringify({ hello: "world" }), "p2");
      send(envelope("echo.unknownThing"), "p3");
      send(envelope("payments.startTransfer"));
      await vi.waitFor(() => expect(replies.size).toBe(3));
    });
    expect(replies.get("p1")).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    expect(replies.get("p2")).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    expect(replies.get("p3")).toMatchObject({ ok: false, error: { code: "internal_error" } });

    await expect(client.call(sayEcho, { text: "still here" }, anonymousCtx)).resolves.toMatchObject({ text: "still here" });
    await vi.waitFor(() => expect(lines().match(/"msg":"dropped /g)).toHaveLength(5));
    const { messageCount } = await withRawChannel(url, (channel) => channel.checkQueue(queue));
    expect(messageCount).toBe(0);
    expect(lines().match(/"msg":"dropped /g)).toHaveLength(5); // acked, not redelivered
  });

  it("fails at once with service_unavailable when the queue exists but nobody consumes, and then sends nothing", async () => {
    queuePrefix = randomQueuePrefix();
    const server = await transport();
    await server.serve("echo", echoHandlers("a"));
    await server.close(); // the durable queue stays, without a consumer
    const client = await transport();
    const err = await client.call(sayEcho, { text: "anyone?" }, anonymousCtx, { timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    // Answered, not timed out: waiting out the 3 s would end in service_timeout.
    expect((err as AppError).code).toBe("service_unavailable");
    // The first call went out before the broker's answer came back (and expires in the queue);
    // now the client knows, and the next ones fail without sending.
    await vi.waitFor(async () => {
      const { messageCount } = await withRawChannel(url, (channel) => channel.checkQueue(`${queuePrefix}echo.rpc`));
      expect(messageCount).toBe(0);
    }, { timeout: 5_000 });
    for (let i = 0; i < 5; i++) {
      const again = await client.call(sayEcho, { text: "anyone now?" }, anonymousCtx, { timeoutMs: 3_000 }).catch((e: unknown) => e);
      expect((again as AppError).code).toBe("service_unavailable");
    }
    const { messageCount } = await withRawChannel(url, (channel) => channel.checkQueue(`${queuePrefix}echo.rpc`));
    expect(messageCount).toBe(0);
  });

  it.skipIf(!canForceClose)("after its own reconnect, waits for a service that has no consumer yet instead of failing it", async () => {
    queuePrefix = randomQueuePrefix();
    const first = await transport();
    await first.serve("echo", echoHandlers("a"));
    await first.close(); // the durable queue stays, without a consumer: its server is "reconnecting"
    const client = await transport({ name: " client" });
    expect(await closeConnectionsNamed(`payrail ${queuePrefix} client`)).toBe(1);
    await vi.waitFor(() => expect(client.isReady()).toBe(true), { timeout: 15_000 });
    const waiting = client.call(sayEcho, { text: "after the blip" }, anonymousCtx, { timeoutMs: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the probe's 1 s re-check
    await (await transport()).serve("echo", echoHandlers("b"));
    await expect(waiting).resolves.toMatchObject({ text: "after the blip" });
  });

  it("fails a waiting call with service_unavailable soon after the last instance of its service stops", async () => {
    queuePrefix = randomQueuePrefix();
    const server = await transport();
    const ran: string[] = [];
    await server.serve("echo", echoHandlers("a", ran));
    const client = await transport();
    expect(await client.call(sayEcho, { text: "warm" }, anonymousCtx)).toMatchObject({ text: "warm" });
    const waiting = client.call(sayEcho, { text: "slow", delayMs: 2_500 }, anonymousCtx, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(ran, "the request to reach the handler").toContain("slow"), { timeout: 15_000 });
    void server.close(); // waits 1 s for the handler, then leaves the request to nobody
    const err = await waiting;
    // Failed when the server left, not answered after its 2.5 s (a reply) nor timed out after
    // 10 s (service_timeout).
    expect((err as AppError).code).toBe("service_unavailable");
  });

  it("acks a delivered request past its deadline without running it or replying; one within it is answered", async () => {
    queuePrefix = randomQueuePrefix();
    const { logger, lines } = memoryLogger();
    const ran: string[] = [];
    const server = await transport({ logger });
    await server.serve("echo", echoHandlers("a", ran));
    const queue = `${queuePrefix}echo.rpc`;
    const replies = new Map<string, unknown>();
    // No broker expiration on these: only the envelope's deadline can stop the first one, as
    // for a request redelivered, or sitting in a busy consumer's prefetch, after its caller left.
    await withRawChannel(url, async (channel) => {
      await channel.consume("amq.rabbitmq.reply-to", (m) => m && replies.set(m.properties.correlationId, JSON.parse(m.content.toString())), { noAck: true });
      const send = (correlationId: string, text: string, deadline: number) =>
        channel.sendToQueue(
          queue,
          Buffer.from(JSON.stringify({ pattern: "echo.say", requestId: correlationId, principal: { kind: "anonymous" }, payload: { text }, deadline })),
          { correlationId, replyTo: "amq.rabbitmq.reply-to" },
        );
      send("late", "late", Date.now() - 1_000);
      send("on-time", "on time", Date.now() + 10_000);
      await vi.waitFor(() => expect(replies.has("on-time")).toBe(true));
      await new Promise((resolve) => setTimeout(resolve, 200)); // room for a wrong reply to arrive
    });
    expect(replies.get("on-time")).toMatchObject({ ok: true, data: { text: "on time" } });
    expect(replies.has("late")).toBe(false);
    expect(ran).toEqual(["on time"]);
    expect(server.stats().expiredRequests).toBe(1);
    expect(lines()).toMatch(/"level":40.*"requestId":"late".*"skipped RPC request past its deadline"/);
    const { messageCount } = await withRawChannel(url, (channel) => channel.checkQueue(queue));
    expect(messageCount).toBe(0); // acked, not left to be redelivered
  });

  it("fails fast with service_unavailable when the broker is absent, and closes cleanly", async () => {
    queuePrefix = randomQueuePrefix();
    const absent = await createAmqpTransport({ url: "amqp://guest:guest@127.0.0.1:1", logger: silentLogger(), defaultTimeoutMs: 10_000 });
    expect(absent.isReady()).toBe(false);
    const err = await absent.call(sayEcho, { text: "x" }, anonymousCtx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("service_unavailable");
    expect((err as AppError).retryAfter).toBeGreaterThanOrEqual(1);
    await absent.close();
  });

  describe.skipIf(!canForceClose).each(["exclusive-queue", "direct"] satisfies ReplyMode[])("when the broker drops the connections (%s replies)", (replyMode) => {
    it("fails in-flight and outage calls with service_unavailable, then reconnects and answers again", async () => {
      queuePrefix = randomQueuePrefix();
      const server = await transport({ replyMode });
      await server.serve("echo", echoHandlers("a"));
      const client = await transport({ replyMode });

      const failures: unknown[] = [];
      let successes = 0;
      let running = true;
      const worker = async () => {
        while (running) {
          try {
            await client.call(sayEcho, { text: "load", delayMs: 5 }, anonymousCtx);
            successes += 1;
          } catch (err) {
            failures.push(err);
            await new Promise((resolve) => setTimeout(resolve, 20)); // a caller backing off
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      await vi.waitFor(() => expect(successes).toBeGreaterThan(50));

      expect(await closeConnectionsNamed(`payrail ${queuePrefix}`)).toBe(2);
      await vi.waitFor(() => expect(failures.length).toBeGreaterThan(0));
      await vi.waitFor(() => expect(client.isReady() && server.isReady()).toBe(true), { timeout: 15_000 });
      const before = successes;
      await vi.waitFor(() => expect(successes).toBeGreaterThan(before + 50), { timeout: 10_000 });
      running = false;
      await Promise.all(workers);

      const codes = new Set(failures.map((e) => (e instanceof AppError ? e.code : String(e))));
      expect([...codes]).toEqual(["service_unavailable"]);
      await expect(client.call(sayEcho, { text: "back" }, anonymousCtx)).resolves.toMatchObject({ text: "back" });
    });

    it("carries calls that run once across the drop: each answered, each handler run once", async () => {
      queuePrefix = randomQueuePrefix();
      const ran: string[] = [];
      const server = await transport({ replyMode, name: " server" });
      server.useReplyLedger(memoryLedger());
      await server.serve("echo", echoHandlers("a", ran));
      const client = await transport({ replyMode, name: " client" });

      // Callers that only call while connected (a call made during the outage fails at once, by
      // design), to a server that serves (its first connection may come later than the client's
      // on a loaded machine, and a service that is not there yet fails a call at once, by design):
      // every call they make is in flight, queued or running, when the drop comes.
      const failures: string[] = [];
      let phase = "before the drop";
      let successes = 0;
      let sequence = 0;
      let running = true;
      const worker = async () => {
        while (running) {
          if (!client.isReady() || !server.isReady()) {
            // Mid-reconnect: no event says "ready again", so the load loop looks every 10 ms.
            await new Promise((resolve) => setTimeout(resolve, 10));
            continue;
          }
          const text = `once-${sequence++}`;
          try {
            const reply = await client.call(sayEcho, { text, delayMs: 100 }, anonymousCtx, { once: true, timeoutMs: 15_000 });
            expect(reply.text).toBe(text);
            successes += 1;
          } catch (err) {
            // Said with its phase, and once per kind: a failure is read, not thousands of objects.
            const what = `${phase}: ${err instanceof AppError ? `${err.code} ${err.message}` : String(err)}`;
            if (!failures.includes(what)) failures.push(what);
            await new Promise((resolve) => setImmediate(resolve)); // a failing caller still yields
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      await vi.waitFor(() => expect(successes).toBeGreaterThan(50), { timeout: 15_000 });
      phase = "around the drop";
      // The client's connection first, then the server's, one rabbitmqctl run apart: a client
      // still connected while its only server is gone is told at once that nobody serves the
      // queue (service_unavailable, nothing ran), by design, and so is a reconnected one once its
      // grace after the reconnect has passed. That case has its own test above; this one is about
      // the calls a lost client connection carries.
      expect(await closeConnectionsInOrder([`payrail ${queuePrefix} client`, `payrail ${queuePrefix} server`])).toEqual([1, 1]);
      await vi.waitFor(() => expect(client.isReady() && server.isReady()).toBe(true), { timeout: 15_000 });
      const before = successes;
      await vi.waitFor(() => expect(successes).toBeGreaterThan(before + 50), { timeout: 15_000 });
      running = false;
      await Promise.all(workers);

      expect(failures).toEqual([]);
      expect(ran.length).toBe(new Set(ran).size);
    }, 60_000);
  });
});

if (broker.url !== undefined && !canForceClose) console.warn("broker outage tests skipped: rabbitmqctl cannot reach the broker");
