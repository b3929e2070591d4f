import { afterAll, describe, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, type Transport } from "../src/index.ts";
import { deleteEventTopology, randomQueuePrefix, readDeadLetters } from "./support/amqp-admin.ts";
import { describeEventsContract, EVENT_TEST_SERVICES, TEST_RETRY } from "./support/events-contract.suite.ts";

const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const url = broker.url;

if (url === undefined) {
  describe.skip(`domain events over RabbitMQ: ${broker.skipReason}`, () => it("runs against a broker", () => undefined));
} else {
  describeEventsContract("RabbitMQ", async () => {
    const queuePrefix = randomQueuePrefix();
    const transports: Transport[] = [];
    return {
      async transport() {
        const transport = await createAmqpTransport({ url, logger: silentLogger(), queuePrefix, defaultTimeoutMs: 5_000, closeGraceMs: 1_000 });
        transports.push(transport);
        return transport;
      },
      deadLetters: (service) => readDeadLetters(url, queuePrefix, service),
      async dispose() {
        await Promise.all(transports.map((t) => t.close()));
        await deleteEventTopology(url, queuePrefix, EVENT_TEST_SERVICES, Object.values(TEST_RETRY));
      },
    };
  });
}
