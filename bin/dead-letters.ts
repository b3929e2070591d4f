import { createLogger, loadConfig, stopAll, type Stoppable } from "@payrail/runtime";
import { createEventDeadLetters, type EventDeadLetters } from "@payrail/store";
import { runningPid } from "./pid-file.ts";
import { openStore } from "./open-store.ts";

/** Runs `work` on the dead letters of the configured store; `untilStart` when no process serves that embedded store now. */
export async function withDeadLetters(work: (letters: EventDeadLetters, untilStart: boolean) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL, name: "cli", format: config.LOG_FORMAT });
  const parts: Stoppable[] = [];
  try {
    if (config.AMQP_URL && !config.MONGODB_URL) throw new Error("dead letters live in the database: set MONGODB_URL as the services have it");
    // Beside a running `payrail start` the embedded store is opened too (SQLite's WAL lets a
    // second process read, and a replay request is one conditional write, atomic across
    // processes): its in-process subscribers poll the requests as they would over RabbitMQ.
    const untilStart = !config.MONGODB_URL && (await runningPid(config.DATA_DIR)) === null;
    const store = await openStore(config, logger);
    parts.push({ name: "store", stop: () => store.close() });
    await work(await createEventDeadLetters(store), untilStart);
  } finally {
    await stopAll(parts, logger);
  }
}
