import { createLogger, loadConfig } from "@payrail/runtime";
import { resolveSecretsKey } from "../secrets-key.ts";
import { openStore } from "../open-store.ts";
import { checkConsistency } from "./consistency-check.ts";

/** `payrail check`'s run: the divergences of the configured store, one line each, exit status 1 when any, then the `attention:` lines (check.command.ts). */
export async function runCheck(graceMs: number): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: "warn", name: "cli", format: config.LOG_FORMAT });
  if (!config.MONGODB_URL) {
    // Its secrets are not read here, but a data directory without its key cannot be served: say so, create none.
    await resolveSecretsKey(config, { create: false });
  }
  const store = await openStore(config, logger);
  try {
    const all = await checkConsistency(store, { graceMs });
    const found = all.filter((d) => !d.attention);
    for (const d of found) console.log(`${d.kind} ${d.id}: ${d.detail}`);
    for (const d of all.filter((x) => x.attention)) console.log(`attention: ${d.kind} ${d.id}: ${d.detail}`);
    console.log(found.length === 0 ? "no divergence" : `${found.length} divergence${found.length === 1 ? "" : "s"}`);
    if (found.length > 0) process.exitCode = 1;
  } finally {
    await store.close();
  }
}
