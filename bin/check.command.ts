import { createLogger, loadConfig } from "@payrail/runtime";
import { type Command } from "commander";
import { checkConsistency } from "./check/consistency-check.ts";
import { durationOption } from "./duration-option.ts";
import { resolveSecretsKey } from "./secrets-key.ts";
import { openStore } from "./wiring.ts";

/**
 * `payrail check`: reports every divergence between checkouts, transaction records, refunds,
 * payouts, outboxes and the events API, one line each; exit status 1 when there is any. Money
 * the merchant must act on (over-returned refunds) is listed after, as `attention:` lines. It
 * reads the store (MONGODB_URL, or the embedded one, also beside a running `payrail start`:
 * SQLite's WAL lets a second process read while the first writes) and writes no document.
 */
export function registerCheckCommand(program: Command): void {
  program
    .command("check")
    .description("report every divergence between the services' records (exit 1 when any)")
    .option("--grace <duration>", "leave out changes younger than this (their events may be on their way)", durationOption, 60_000)
    .action(async (o: { grace: number }) => {
      const config = loadConfig();
      const logger = createLogger({ level: "warn", name: "cli", format: config.LOG_FORMAT });
      if (!config.MONGODB_URL) {
        // Its secrets are not read here, but a data directory without its key cannot be served: say so, create none.
        await resolveSecretsKey(config, { create: false });
      }
      const store = await openStore(config, logger);
      try {
        const all = await checkConsistency(store, { graceMs: o.grace });
        const found = all.filter((d) => !d.attention);
        for (const d of found) console.log(`${d.kind} ${d.id}: ${d.detail}`);
        for (const d of all.filter((x) => x.attention)) console.log(`attention: ${d.kind} ${d.id}: ${d.detail}`);
        console.log(found.length === 0 ? "no divergence" : `${found.length} divergence${found.length === 1 ? "" : "s"}`);
        if (found.length > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}
