import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createWebhookEndpointOp, listDeliveriesOp } from "@payrail/contracts";
import { createAmqpTransport, type Transport } from "@payrail/messaging";
import { amqpTestUrl, testQueuePrefix } from "@payrail/messaging/testing";
import { silentLogger } from "@payrail/runtime";
import { withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, verify, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { start } from "../src/index.ts";
import { crashPolicy } from "./support/crash-policy.ts";
import { as, merchant, refundEvent, until } from "./support/webhooks-harness.ts";

// A process of its own needs the broker and database it can reach too: RabbitMQ + MongoDB only.
const broker = await amqpTestUrl();
const mongo = await mongoTestUrl();
const skipReason = broker.skipReason ?? mongo.skipReason;

describe.skipIf(!!skipReason)("a webhooks process killed mid-delivery (RabbitMQ + MongoDB)", () => {
  const suffix = randomBytes(4).toString("hex");
  const queuePrefix = testQueuePrefix();
  const dbName = `payrail_test_${suffix}`;
  const secretsKey = randomBytes(32);
  const logger = silentLogger();
  let child: ChildProcess | undefined;
  let client: Transport;
  let store: Store;
  let receiver: Receiver;
  let restarted: { stop(): Promise<void> } | undefined;
  let restartedTransport: Transport | undefined;

  beforeAll(async () => {
    client = await createAmqpTransport({ url: broker.url!, logger, queuePrefix, defaultTimeoutMs: 5_000 });
    store = withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await restarted?.stop();
    await restartedTransport?.close();
    await receiver?.close();
    await client?.close();
    await store?.drop();
    await store?.close();
    await broker.stop();
    await mongo.stop();
  });

  it("delivers the event after a restart, with the same webhook-id", async () => {
    const script = fileURLToPath(new URL("./support/webhooks-process.ts", import.meta.url));
    child = spawn(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, AMQP_URL: broker.url!, MONGODB_URL: mongo.url!, TEST_QUEUE_PREFIX: queuePrefix, TEST_DB: dbName, TEST_SECRETS_KEY: secretsKey.toString("hex") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await until("the child to serve", () => stdout.includes("ready"), 30_000);

    const m = merchant();
    const endpoint = await client.call(createWebhookEndpointOp, { url: receiver.url, enabled_events: ["*"] }, as(m));
    // The first request hangs: the child is inside its attempt when it dies.
    receiver.answer = (_request, index) => (index === 0 ? "hang" : 200);
    const event = refundEvent(m);
    await client.publish(event);
    await until("the child's attempt", () => receiver.of(event.id).length === 1);
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;

    restartedTransport = await createAmqpTransport({ url: broker.url!, logger, queuePrefix });
    restarted = await start({ transport: restartedTransport, store, logger, secretsKey, policy: crashPolicy, worker: { pollMs: 50 }, allowPrivateUrls: true });
    await until("the delivery after the restart", () => receiver.of(event.id).length === 2, 20_000);
    const [, delivered] = receiver.of(event.id);
    expect(delivered!.headers["webhook-id"]).toBe(event.id);
    expect(verify(endpoint.secret, delivered!)).toMatchObject({ id: event.id });
    await until("the attempt's record", async () => (await client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m))).data.length === 1);
    const { data } = await client.call(listDeliveriesOp, { id: endpoint.id, limit: 10 }, as(m));
    // The killed attempt never got to record itself; the delivery is done once.
    expect(data.map((a) => [a.attempt, a.status, a.http_status])).toEqual([[1, "succeeded", 200]]);
    // Room for a third send, had the delivery not been done (ten of the worker's polls).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.of(event.id)).toHaveLength(2);
  });
});
