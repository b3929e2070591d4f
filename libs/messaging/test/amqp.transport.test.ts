import { afterAll, describe, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, type ReplyMode, type Transport } from "../src/index.ts";
import { deleteQueues, randomQueuePrefix } from "./support/amqp-admin.ts";
import { describeRpcContract } from "./support/rpc-contract.suite.ts";

const broker = await amqpTestUrl();
afterAll(() => broker.stop());

if (broker.url === undefined) {
  describe.skip(`RPC contract over RabbitMQ: ${broker.skipReason}`, () => it("runs against a broker", () => undefined));
}

for (const replyMode of ["direct", "exclusive-queue"] satisfies ReplyMode[]) {
  const url = broker.url;
  if (url === undefined) break;
  describeRpcContract(`RabbitMQ (${replyMode} replies)`, async () => {
    const queuePrefix = randomQueuePrefix();
    const transports: Transport[] = [];
    return {
      async transport(options = {}) {
        const logger = options.logger ?? silentLogger();
        const transport = await createAmqpTransport({ url, logger, queuePrefix, replyMode, defaultTimeoutMs: 2_000, closeGraceMs: 1_000 });
        transports.push(transport);
        return transport;
      },
      async dispose() {
        await Promise.all(transports.map((t) => t.close()));
        await deleteQueues(url, [`${queuePrefix}echo.rpc`]);
      },
    };
  });
}
