import {
  createMerchantOp,
  generateApiKeyOp,
  listApiKeysOp,
  listMerchantsOp,
  revokeApiKeyOp,
  type Operation,
  type RequestOf,
  type ResponseOf,
} from "@payrail/contracts";
import { createLogger, loadConfig, stopAll, type Stoppable } from "@payrail/runtime";
import { type Command, InvalidArgumentError } from "commander";
import { runningPid } from "./pid-file.ts";
import { openStore, openTransport, startServices } from "./wiring.ts";

const admin = { requestId: "cli", principal: { kind: "admin" as const } };
type Call = <O extends Operation>(op: O, payload: RequestOf<O>) => Promise<ResponseOf<O>>;

const merchantId = (value: string) => {
  if (!/^mer_[0-9a-f]{32}$/.test(value)) throw new InvalidArgumentError("a merchant id is mer_ and 32 lowercase hex characters");
  return value;
};
const limit = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError("a whole number from 1 to 1000");
  return n;
};
const url = (value: string) => {
  if (!URL.canParse(value)) throw new InvalidArgumentError("an absolute URL");
  return value;
};

/**
 * `payrail merchant create|list|keys|key|revoke`. With AMQP_URL they ask the running identity
 * service over RabbitMQ; without, they open the store themselves and run identity in this
 * process (refused while `payrail start` holds the embedded store).
 */
export function registerMerchantCommands(program: Command): void {
  const merchant = program
    .command("merchant")
    .description("administer merchants and their API keys (over RabbitMQ with AMQP_URL, else on the store directly)");

  merchant
    .command("create")
    .description("create a merchant and print its first API key (shown once)")
    .requiredOption("--name <name>", "the merchant's name")
    .option("--destination <url>", "the merchant's funding source at the transfer provider", url)
    .action((o: { name: string; destination?: string }) =>
      withIdentity(async (call) => {
        const out = await call(createMerchantOp, { name: o.name, ...(o.destination ? { destination_funding_source: o.destination } : {}) });
        console.log(`merchant ${out.merchant.id} (${out.merchant.name})`);
        console.log(`api-key (shown once): ${out.api_key}`);
      }),
    );

  merchant
    .command("list")
    .description("list merchants, newest first")
    .option("--limit <n>", "how many (1-1000)", limit, 100)
    .action((o: { limit: number }) =>
      withIdentity(async (call) => {
        const out = await call(listMerchantsOp, { limit: o.limit });
        for (const m of out.data) console.log(`${m.id}  ${m.created_at}  ${m.name}`);
        if (out.has_more) console.log(`… more than ${o.limit}; use --limit`);
      }),
    );

  merchant
    .command("keys")
    .description("list a merchant's API keys by prefix (the keys themselves are never stored)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .action((o: { id: string }) =>
      withIdentity(async (call) => {
        const out = await call(listApiKeysOp, { merchant_id: o.id });
        for (const k of out.data) {
          console.log(`${k.key_prefix}  ${k.livemode ? "live" : "test"}  created ${k.created_at}  ${k.revoked_at ? `revoked ${k.revoked_at}` : "active"}`);
        }
      }),
    );

  merchant
    .command("key")
    .description("issue another API key (older keys stay valid until revoked)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .action((o: { id: string }) =>
      withIdentity(async (call) => {
        const out = await call(generateApiKeyOp, { merchant_id: o.id });
        console.log(`api-key (shown once): ${out.api_key}`);
      }),
    );

  merchant
    .command("revoke")
    .description("revoke an API key by its prefix (see `merchant keys`)")
    .requiredOption("--id <merchant id>", "mer_…", merchantId)
    .requiredOption("--prefix <key prefix>", "sk_test_… or sk_live_…")
    .action((o: { id: string; prefix: string }) =>
      withIdentity(async (call) => {
        await call(revokeApiKeyOp, { merchant_id: o.id, key_prefix: o.prefix });
        console.log(`revoked ${o.prefix}`);
      }),
    );
}

/** Runs `work` against identity: the running service over RabbitMQ, or one started here. */
async function withIdentity(work: (call: Call) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL, name: "cli", format: config.LOG_FORMAT });
  const parts: Stoppable[] = [];
  try {
    if (!config.AMQP_URL && !config.MONGODB_URL) {
      const pid = await runningPid(config.DATA_DIR);
      if (pid !== null) {
        throw new Error(`Payrail (pid ${pid}) holds ${config.DATA_DIR}; stop it first, or use the admin routes with ADMIN_TOKEN set`);
      }
    }
    const transport = await openTransport(config, logger);
    parts.push({ name: "transport", stop: () => transport.close() });
    if (!config.AMQP_URL) {
      const store = await openStore(config, logger);
      parts.push({ name: "store", stop: () => store.close() });
      parts.push(...(await startServices(["identity"], { config, logger, transport, store })));
    }
    await work((op, payload) => transport.call(op, payload, admin));
  } finally {
    await stopAll(parts, logger);
  }
}
