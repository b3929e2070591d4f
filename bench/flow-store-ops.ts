/**
 * Store round trips of the full flow (bench/http/full-flow.ts), per collection and operation:
 * every service of `npm start` in this process on the in-process bus and an in-memory embedded
 * store wrapped in a counter, `--flows` flows by `--clients` concurrent clients, then idle until the events
 * are handled (`--settle-ms`). Prints each collection's calls per flow by operation, largest
 * first; an insert the store refused (a duplicate key) is counted once more on a line of its own.
 * The counts are the code's, not the machine's: a change to a use case shows in them exactly.
 *
 *   npm run bench:flow-ops -- [--flows 200] [--clients 20] [--transfer] [--mongo]
 *
 * `--mongo` counts the deployment's store instead: the MongoDB-wire store at MONGODB_URL (a
 * database of its own, dropped first) and RabbitMQ at AMQP_URL (the bench's vhost). The in-process
 * bus's event queues are then the broker's, and the outbox relay and its marks are what remain.
 *
 * `--transfer` counts the flow's last call alone (get_processor_token, with what its events
 * cause), the checkouts linked first. `--create` counts the flow's first call alone (a
 * checkout's create, with its events relayed and handled).
 */
import { randomBytes } from "node:crypto";
import { Agent } from "node:http";
import { parseArgs } from "node:util";
import { createMerchantOp } from "@payrail/contracts";
import { createTransport } from "@payrail/messaging";
import { SERVICE_NAMES, loadConfig, silentLogger } from "@payrail/runtime";
import { createStore } from "@payrail/store";
import { countingStore } from "./counting-store.ts";
import { benchAmqpUrl } from "./http/amqp-vhost.ts";
import { startServices } from "../bin/wiring.ts";
import { checkoutBody } from "./http/checkout-body.ts";
import { getProcessorToken, jsonClient, linkedCheckout } from "./http/full-flow.ts";

const { values } = parseArgs({
  options: {
    flows: { type: "string", default: "200" },
    clients: { type: "string", default: "20" },
    "settle-ms": { type: "string", default: "3000" },
    // Count the last step only (get_processor_token and what its events cause): the flows are linked first, uncounted.
    transfer: { type: "boolean", default: false },
    // Count the first step only: a create and what its events cause.
    create: { type: "boolean", default: false },
    mongo: { type: "boolean", default: false },
  },
});
const flows = Number(values.flows);
if (values.transfer && values.create) throw new Error("--transfer or --create, not both");
const counted = values.transfer ? "transfer" : values.create ? "create" : "flow";

const logger = silentLogger();
const config = loadConfig({
  SECRETS_KEY: randomBytes(32).toString("base64"),
  PORT: "0",
  PROVIDERS: "sandbox",
  DEMO_MERCHANT: "off",
  // As bench/http/deployments.ts: one key and one client address start every flow.
  RATE_LIMIT_PER_MINUTE: "1000000000",
  SEND_CODE_PER_ADDRESS_PER_HOUR: "1000000000",
  SEND_CODE_PER_HOUR: "1000000000",
});
const mongodbUrl = values.mongo ? process.env["MONGODB_URL"] : undefined;
if (values.mongo && !mongodbUrl) throw new Error("--mongo needs MONGODB_URL (and AMQP_URL for the broker)");
const dbName = `payrail_flow_ops_${process.pid}`;
const store = countingStore(await createStore({ logger, mongodbUrl, dbName }));
if (mongodbUrl) await store.drop();
const amqpUrl = values.mongo ? (await benchAmqpUrl(process.env["AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672")).url : undefined;
const transport = await createTransport({ logger, amqpUrl });
const started = await startServices(SERVICE_NAMES, { config, logger, transport, store });
const url = started.find((s) => s.name === "gateway")!.url!;
const { api_key: apiKey } = await transport.call(createMerchantOp, { name: "Flow ops" }, { requestId: "bench", principal: { kind: "admin" } });
const call = jsonClient(url, new Agent({ keepAlive: true }));
// One flow first: start-up's own reads and writes (indexes, first caches) are not counted.
await getProcessorToken(call, apiKey, await linkedCheckout(call, apiKey));
await new Promise((r) => setTimeout(r, Number(values["settle-ms"])));
// Concurrent clients, so that the services' periodic passes (sweeps, reconcilers) weigh little per flow.
const concurrently = async (work: () => Promise<void>) => {
  let left = flows;
  const client = async () => {
    while (left-- > 0) await work();
  };
  await Promise.all(Array.from({ length: Number(values.clients) }, client));
  await new Promise((r) => setTimeout(r, Number(values["settle-ms"])));
};
if (values.transfer) {
  const linked: string[] = [];
  await concurrently(async () => void linked.push(await linkedCheckout(call, apiKey)));
  store.reset();
  await concurrently(async () => void (await getProcessorToken(call, apiKey, linked.pop()!)));
} else if (values.create) {
  store.reset();
  await concurrently(async () => void (await call("POST", "/api/merchants/checkout", { "api-key": apiKey }, checkoutBody(`ops-${Date.now()}-${Math.random()}`))));
} else {
  store.reset();
  await concurrently(async () => void (await getProcessorToken(call, apiKey, await linkedCheckout(call, apiKey))));
}

const READS = new Set(["findOne", "find", "countDocuments", "estimatedCount"]);
const total = { reads: 0, writes: 0, refused: 0 };
for (const [key, n] of [...store.byCall].sort((a, b) => b[1] - a[1])) {
  const per = n / flows;
  const op = key.split(" ")[1]!;
  if (key.endsWith(" refused")) total.refused += per;
  else if (READS.has(op)) total.reads += per;
  else total.writes += per;
  console.log(`${per.toFixed(2).padStart(7)}  ${key}`);
}
console.log(
  `per ${counted}: ${(total.reads + total.writes).toFixed(1)} calls: ${total.reads.toFixed(1)} reads, ${total.writes.toFixed(1)} writes ` +
    `(inserts, findOneAndUpdate, deletes, sequences), of which ${total.refused.toFixed(1)} inserts refused as duplicates`,
);
for (const s of [...started].reverse()) await s.stop();
await transport.close();
if (mongodbUrl) await store.drop();
await store.close();
