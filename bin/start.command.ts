import { SERVICE_NAMES, createLogger, loadConfig, stopAll, stopOnSignals, type Stoppable } from "@payrail/runtime";
import { ensureDemoMerchant } from "./demo-merchant.ts";
import { writePidFile } from "./pid-file.ts";
import { openStore, openTransport, startServices } from "./wiring.ts";

/**
 * `payrail start`: with nothing configured, every service in this process on the in-process
 * bus and the embedded store; with AMQP_URL/MONGODB_URL, the same code on RabbitMQ/MongoDB,
 * and SERVICES picks which services this process runs.
 */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL });
  const embeddedBus = !config.AMQP_URL;
  if (embeddedBus && config.SERVICES.length < SERVICE_NAMES.length) {
    throw new Error("SERVICES can split services across processes only with AMQP_URL set (the in-process bus reaches this process only)");
  }
  const parts: Stoppable[] = [];
  try {
    const needsStore = config.SERVICES.some((s) => s !== "gateway");
    const store = needsStore ? await openStore(config, logger) : null;
    if (store) parts.push({ name: "store", stop: () => store.close() });
    if (store && !config.MONGODB_URL) parts.push(await writePidFile(config.DATA_DIR));
    const transport = await openTransport(config, logger);
    parts.push({ name: "transport", stop: () => transport.close() });
    const started = await startServices(config.SERVICES, { config, logger, transport, store });
    parts.push(...started);

    const mode = `${config.AMQP_URL ? "RabbitMQ" : "in-process bus"}, ${config.MONGODB_URL ? "MongoDB" : `embedded store in ${config.DATA_DIR}`}`;
    console.log(`Payrail running: ${config.SERVICES.join(", ")} (${mode})`);
    const gateway = started.find((s) => s.url);
    if (gateway?.url) {
      console.log(`  API:  ${gateway.url}`);
      console.log(`  Docs: ${gateway.url}/docs`);
    }
    if (config.SERVICES.includes("identity")) {
      const demo = await ensureDemoMerchant(config, transport);
      if (demo) console.log(`  Demo merchant ${demo.merchantId}, api-key: ${demo.apiKey}`);
    }
    stopOnSignals(parts, logger);
  } catch (err) {
    await stopAll(parts, logger);
    throw err;
  }
}
