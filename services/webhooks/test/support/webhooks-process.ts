/**
 * The webhooks service alone in a process of its own, for the crash test: on RabbitMQ and
 * MongoDB named by the environment (AMQP_URL, MONGODB_URL, TEST_QUEUE_PREFIX, TEST_DB,
 * TEST_SECRETS_KEY in hex), with the delivery policy of `crashPolicy`. Prints "ready" once it
 * serves; the test then kills it with SIGKILL.
 */
import { createAmqpTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { withIndexCheck } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { start } from "../../src/index.ts";
import { crashPolicy } from "./crash-policy.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const logger = silentLogger();
const transport = await createAmqpTransport({ url: env("AMQP_URL"), logger, queuePrefix: env("TEST_QUEUE_PREFIX") });
const store = withIndexCheck(createMongoStore({ url: env("MONGODB_URL"), dbName: env("TEST_DB"), logger }), { mode: "enforce" });
await start({ transport, store, logger, secretsKey: Buffer.from(env("TEST_SECRETS_KEY"), "hex"), allowPrivateUrls: true, policy: crashPolicy, worker: { pollMs: 50 } });
console.log("ready");
