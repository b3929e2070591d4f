import { createMerchantOp, generateApiKeyOp, revokeApiKeyOp } from "@payrail/contracts";
import { createLogger, loadConfig, stopAll, type Stoppable } from "@payrail/runtime";
import { parseArgs } from "node:util";
import { runningPid } from "./pid-file.ts";
import { openStore, openTransport, startServices } from "./wiring.ts";

const admin = { requestId: "cli", principal: { kind: "admin" as const } };

/**
 * `payrail merchant create|key|revoke`. With AMQP_URL it asks the running identity service
 * over RabbitMQ; without, it opens the store itself and runs identity in this process.
 */
export async function runMerchantCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: "string" }, destination: { type: "string" }, id: { type: "string" }, prefix: { type: "string" } },
  });
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL });
  const parts: Stoppable[] = [];
  try {
    if (!config.AMQP_URL && !config.MONGODB_URL) {
      const pid = await runningPid(config.DATA_DIR);
      if (pid !== null) {
        throw new Error(`Payrail (pid ${pid}) holds ${config.DATA_DIR}; stop it first, or use POST /api/admin/merchants with ADMIN_TOKEN set`);
      }
    }
    const transport = await openTransport(config, logger);
    parts.push({ name: "transport", stop: () => transport.close() });
    if (!config.AMQP_URL) {
      const store = await openStore(config, logger);
      parts.push({ name: "store", stop: () => store.close() });
      parts.push(...(await startServices(["identity"], { config, logger, transport, store })));
    }
    if (sub === "create") {
      if (!values.name) throw new Error("merchant create needs --name");
      const out = await transport.call(
        createMerchantOp,
        { name: values.name, ...(values.destination ? { destination_funding_source: values.destination } : {}) },
        admin,
      );
      console.log(`merchant ${out.merchant.id} (${out.merchant.name})`);
      console.log(`api-key (shown once): ${out.api_key}`);
    } else if (sub === "key") {
      if (!values.id) throw new Error("merchant key needs --id");
      const out = await transport.call(generateApiKeyOp, { merchant_id: values.id }, admin);
      console.log(`api-key (shown once): ${out.api_key}`);
    } else if (sub === "revoke") {
      if (!values.id || !values.prefix) throw new Error("merchant revoke needs --id and --prefix");
      await transport.call(revokeApiKeyOp, { merchant_id: values.id, key_prefix: values.prefix }, admin);
      console.log(`revoked ${values.prefix}`);
    } else {
      throw new Error("merchant needs one of: create, key, revoke");
    }
  } finally {
    await stopAll(parts, logger);
  }
}
