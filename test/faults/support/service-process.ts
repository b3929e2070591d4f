/**
 * One Payrail service alone in a process, for the fault suites: SERVICE names it (identity,
 * checkout, payments, refunds, webhooks or gateway), on the RabbitMQ and MongoDB-wire server the
 * environment names (AMQP_URL, MONGODB_URL, TEST_QUEUE_PREFIX, TEST_DB; TEST_SECRETS_KEY in
 * base64, the same for every process, since one seals what another opens). Every other setting
 * comes from the environment as `payrail start` reads it (RECONCILE_AFTER, EVENT_RETRY_HOURS…).
 * Started through the launcher's wiring, so it runs what production runs (reply ledger, event
 * retries, dead letters). Prints "ready" (the gateway: "ready <url>") once it serves.
 */
import { createAmqpTransport } from "@payrail/messaging";
import { createLogger, loadConfig, type ServiceName } from "@payrail/runtime";
import { withIndexCheck } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { startServices } from "../../../bin/wiring.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const service = env("SERVICE") as ServiceName;
const config = loadConfig({ ...process.env, SECRETS_KEY: env("TEST_SECRETS_KEY"), PORT: "0", HOST: "127.0.0.1" });
// On stderr, which the test passes through: "ready" alone goes to stdout.
const logger = createLogger({ level: config.LOG_LEVEL, name: service, format: "json", destination: process.stderr });
const transport = await createAmqpTransport({
  url: env("AMQP_URL"),
  logger,
  queuePrefix: env("TEST_QUEUE_PREFIX"),
  defaultTimeoutMs: config.RPC_TIMEOUT_MS,
  eventRetry: { retryForMs: Math.round(config.EVENT_RETRY_HOURS * 3_600_000) },
});
const store = service === "gateway" ? null : withIndexCheck(createMongoStore({ url: env("MONGODB_URL"), dbName: env("TEST_DB"), logger }), { mode: "enforce" });
const started = await startServices([service], { config, logger, transport, store });
// Ends with the test that started it, even one that died before it could stop it: its pipe closes.
process.stdin.on("end", () => process.exit(0)).resume();
console.log(`ready${started.find((s) => s.url)?.url ? ` ${started.find((s) => s.url)!.url}` : ""}`);
