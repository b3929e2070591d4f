import { performance } from "node:perf_hooks";
import { createLogger, loadConfig } from "@payrail/runtime";
import { createSharedIndexes } from "@payrail/store";
import { DOMAIN_SERVICES } from "./domain-services.ts";
import { openStore } from "./open-store.ts";
import { runningPid } from "./pid-file.ts";
import { SERVICE_MODULES } from "./service-modules.ts";

/** `payrail indexes`' run (indexes.command.ts): every service's indexes and the shared collections', one line per service. */
export async function runIndexes(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: "warn", name: "cli", format: config.LOG_FORMAT });
  if (!config.MONGODB_URL) {
    // The embedded store's files belong to one process.
    const pid = await runningPid(config.DATA_DIR);
    if (pid !== null) throw new Error(`Payrail (pid ${pid}) holds ${config.DATA_DIR}; it created its indexes at start`);
  }
  const store = await openStore(config, logger);
  try {
    // Each service's own index list: its `createIndexes`, which its `start` runs too.
    for (const service of DOMAIN_SERVICES) {
      const t0 = performance.now();
      await (await SERVICE_MODULES[service]()).createIndexes(store);
      console.log(`${service}: indexes in place (${Math.round(performance.now() - t0)} ms)`);
    }
    await createSharedIndexes(store);
    console.log("shared collections: indexes in place");
  } finally {
    await store.close();
  }
}
