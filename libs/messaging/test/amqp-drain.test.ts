import { connect, type ChannelModel } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, handle, type Transport } from "../src/index.ts";
import { until } from "../../../test/support/until.ts";
import { deleteQueues, randomQueuePrefix } from "./support/amqp-admin.ts";
import { anonymousCtx, sayEcho } from "./support/echo.operations.ts";

const broker = await amqpTestUrl();

/**
 * A replica that drains (SIGTERM: `stopServing` before its services stop) finishes the request
 * it is running, and takes no new one: its consumer is cancelled, so a request sent meanwhile
 * waits on the queue for another replica instead of being taken and lost with the process.
 */
describe.skipIf(!broker.url)("draining a RabbitMQ server (stopServing)", () => {
  const queuePrefix = randomQueuePrefix();
  const queue = `${queuePrefix}echo.rpc`;
  const transports: Transport[] = [];
  let admin: ChannelModel;

  const transport = async () => {
    const t = await createAmqpTransport({ url: broker.url!, logger: silentLogger(), queuePrefix, defaultTimeoutMs: 20_000, closeGraceMs: 1_000 });
    transports.push(t);
    return t;
  };
  const queueState = async () => {
    const channel = await admin.createChannel();
    try {
      return await channel.checkQueue(queue);
    } finally {
      await channel.close();
    }
  };

  beforeAll(async () => {
    admin = await connect(broker.url!);
  });
  afterAll(async () => {
    for (const t of transports) await t.close();
    await deleteQueues(broker.url!, [queue]).catch(() => undefined);
    await admin?.close();
    await broker.stop();
  });

  it("finishes the request in flight, and leaves one sent during the drain on the queue for the other replica", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ran: Record<string, string[]> = { a: [], b: [] };
    const replica = (instance: "a" | "b") => [
      handle(sayEcho, async (payload, ctx) => {
        ran[instance]!.push(payload.text);
        if (payload.text === "in flight") await held;
        return { text: payload.text, instance, requestId: ctx.requestId, principal: ctx.principal, delayMs: 0 };
      }),
    ];
    const a = await transport();
    await a.serve("echo", replica("a"));
    const client = await transport();

    const inFlight = client.call(sayEcho, { text: "in flight" }, anonymousCtx);
    await until("the first request to run on replica a", () => ran.a!.includes("in flight"));
    const drained = a.stopServing(15_000);
    let drainedYet = false;
    void drained.then(() => (drainedYet = true));
    await until("replica a's consumer to be cancelled", async () => (await queueState()).consumerCount === 0);

    const sentDuringDrain = client.call(sayEcho, { text: "sent during the drain" }, anonymousCtx);
    await until("the new request to wait on the queue", async () => (await queueState()).messageCount === 1);
    expect(ran.a).toEqual(["in flight"]);
    expect(drainedYet).toBe(false); // still waiting for the request it runs

    release();
    await expect(inFlight).resolves.toMatchObject({ text: "in flight", instance: "a" });
    await drained;

    const b = await transport();
    await b.serve("echo", replica("b"));
    await expect(sentDuringDrain).resolves.toMatchObject({ text: "sent during the drain", instance: "b" });
    expect(ran.a).toEqual(["in flight"]);
  });
});
