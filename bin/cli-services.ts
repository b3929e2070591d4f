import { createLogger, loadConfig, stopAll, type Config, type Logger, type ServiceName, type Stoppable } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { AdminCall } from "./admin-call.ts";
import { runningPid } from "./pid-file.ts";
import { resolveSecretsKey } from "./secrets-key.ts";
import { openStore, openTransport, startServices } from "./wiring.ts";

const admin = { requestId: "cli", principal: { kind: "admin" as const } };

export type { AdminCall } from "./admin-call.ts";

/** What a CLI command gets: admin calls, and (embedded mode only) the store the services run on. */
export interface CliContext {
  call: AdminCall;
  config: Config;
  logger: Logger;
  /** The store, when this process opened it (no AMQP_URL): read-only checks may use it. */
  store: Store | null;
}

/**
 * Runs `work` against the running services over RabbitMQ (AMQP_URL), or, without a broker,
 * against `services` started in this process on the store (refused while `payrail start`
 * holds the embedded store). Services that publish events should be started with those that
 * follow them, so that what they publish here is applied here.
 */
export async function withServices(services: readonly ServiceName[], work: (cli: CliContext) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL, name: "cli", format: config.LOG_FORMAT });
  const parts: Stoppable[] = [];
  try {
    if (!config.AMQP_URL && !config.MONGODB_URL) {
      const pid = await runningPid(config.DATA_DIR);
      // Its files belong to one process: this command reads or moves state in the store itself.
      if (pid !== null) throw new Error(`Payrail (pid ${pid}) holds ${config.DATA_DIR}; this command opens the store itself: stop it first`);
    }
    // Services run here only without a broker. They need the data's key, which only `payrail
    // start` makes: read before anything is opened, so that a refusal writes nothing.
    const secretsKey = config.AMQP_URL ? undefined : await resolveSecretsKey(config, { create: false });
    const transport = await openTransport(config, logger);
    parts.push({ name: "transport", stop: () => transport.close() });
    let store: Store | null = null;
    if (!config.AMQP_URL) {
      const opened = await openStore(config, logger);
      store = opened;
      // Stopped last, after the transport has let its event handlers and replay polls finish.
      parts.unshift({ name: "store", stop: () => opened.close() });
      parts.push(...(await startServices(services, { config, logger, transport, store: opened, secretsKey })));
    }
    await work({ call: (op, payload) => transport.call(op, payload, admin), config, logger, store });
  } finally {
    await stopAll(parts, logger);
  }
}
