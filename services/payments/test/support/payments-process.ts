/**
 * One payments instance alone in a process, for the kill tests: on RabbitMQ and MongoDB named by
 * the environment (AMQP_URL, MONGODB_URL, TEST_QUEUE_PREFIX, TEST_DB; TEST_SECRETS_KEY in
 * base64, the same for every instance, since one seals the access tokens another opens; and
 * TRANSFER_LEASE_MS, empty for its default), started through the launcher's wiring so it runs with what production
 * runs with (the reply ledger included). Renewals are off. Prints "ready" once it serves; the
 * test then kills it with SIGKILL.
 */
import { createAmqpTransport } from "@payrail/messaging";
import { createLogger, loadConfig, silentLogger } from "@payrail/runtime";
import { withIndexCheck } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
// Through the launcher's wiring: a service never imports another service, not even in tests.
import { startServices } from "../../../../bin/wiring.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
// TEST_LOG_LEVEL (warn, say) shows what the process logs on stderr when a kill test misbehaves.
const logLevel = process.env["TEST_LOG_LEVEL"];
const logger = logLevel ? createLogger({ level: logLevel, destination: process.stderr, format: "json" }) : silentLogger();
// The kill tests pay 70 checkouts from one sandbox bank account: the fraud rules' velocity limits
// would hold all but the first few for review, and the tests are about transfers and their locks.
const config = loadConfig({ SECRETS_KEY: env("TEST_SECRETS_KEY"), TRANSFER_LEASE_MS: process.env["TRANSFER_LEASE_MS"], RENEWAL_POLL_MS: "0", FRAUD_ACCOUNT_DEBITS_PER_DAY: "1000000", FRAUD_PHONE_DEBITS_PER_DAY: "1000000", FRAUD_PHONE_ACCOUNTS_PER_30_DAYS: "1000000" });
const transport = await createAmqpTransport({ url: env("AMQP_URL"), logger, queuePrefix: env("TEST_QUEUE_PREFIX") });
const store = withIndexCheck(createMongoStore({ url: env("MONGODB_URL"), dbName: env("TEST_DB"), logger }), { mode: "enforce" });
await startServices(["payments"], { config, logger, transport, store });
// Ends with the test that started it, even one that died before it could kill it: its pipe closes.
process.stdin.on("end", () => process.exit(0)).resume();
console.log("ready");
