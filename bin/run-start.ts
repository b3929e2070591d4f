import { SERVICE_NAMES, createLogger, drainBoundMs, loadConfig, stopAll, stopOnSignals, type Stoppable } from "@payrail/runtime";
import { inDrainOrder } from "./drain-order.ts";
import { ensureDemoMerchant } from "./demo-merchant.ts";
import { startMetricsServer } from "./observability/metrics-server.ts";
import { createProcessMetrics } from "./observability/process-metrics.ts";
import { newCliAdminToken, writeCliAccess } from "./cli-access.ts";
import { writePidFile } from "./pid-file.ts";
import { isProduction, productionRefusal } from "./production-guard.ts";
import { resolveSecretsKey } from "./secrets-key.ts";
import { openStore, openTransport, startServices, trustedSenders, type Started } from "./wiring.ts";

/**
 * `payrail start`: with nothing configured, every service in this process on the in-process
 * bus and the embedded store; with AMQP_URL/MONGODB_URL, the same code on RabbitMQ/MongoDB,
 * and SERVICES picks which services this process runs.
 */
/** Prometheus exporters' customary port: /metrics of processes that run no gateway, and of every production process. */
const DEFAULT_METRICS_PORT = 9464;

export async function runStart(): Promise<void> {
  const config = loadConfig();
  const refusal = productionRefusal(process.env, config);
  if (refusal) throw new Error(refusal);
  const production = isProduction();
  // Every line names its service: a service's own child logger, else this process's services.
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, name: processName(config.SERVICES) });
  const embeddedBus = !config.AMQP_URL;
  if (embeddedBus && config.SERVICES.length < SERVICE_NAMES.length) {
    throw new Error("SERVICES can split services across processes only with AMQP_URL set (the in-process bus reaches this process only)");
  }
  const parts: Stoppable[] = [];
  try {
    const needsStore = config.SERVICES.some((s) => s !== "gateway");
    // The key before the store: a data directory that holds data but lost its key is refused untouched.
    const secretsKey = needsStore ? await resolveSecretsKey(config, { create: true }) : undefined;
    const store = needsStore ? await openStore(config, logger) : null;
    if (store) parts.push({ name: "store", stop: () => store.close() });
    const embedded = !!store && !config.MONGODB_URL;
    if (embedded) parts.push(await writePidFile(config.DATA_DIR));
    // Beside an embedded store the CLI's merchant commands go through this gateway's admin routes.
    const cliAdminToken = embedded ? newCliAdminToken() : undefined;
    const transport = await openTransport(config, logger);
    parts.push({ name: "transport", stop: () => transport.close() });
    if (config.AMQP_URL && !trustedSenders(config)) {
      logger.info("broker trust boundary off (AMQP_GATEWAY_USERS unset): any broker user may act for merchants and consumers and publish any event");
    }
    const metrics = createProcessMetrics(transport);
    parts.push({ name: "metrics", stop: async () => metrics.close() });
    // In production /metrics is not on the API port (anyone who reaches the API would read it), only on METRICS_PORT.
    const started: Started[] = [];
    try {
      started.push(...(await startServices(config.SERVICES, { config, logger, transport, store, processMetrics: metrics.registry, metricsOnApiPort: !production, cliAdminToken, secretsKey })));
      // A process without the gateway (and in production every process) serves health and metrics on METRICS_PORT (docs/api-notes.md, Operations).
      const metricsPort = config.METRICS_PORT ?? (hasGateway(config.SERVICES) && !production ? undefined : DEFAULT_METRICS_PORT);
      if (metricsPort !== undefined) {
        const domain = config.SERVICES.filter((s) => s !== "gateway");
        started.push(await startMetricsServer({ port: metricsPort, host: config.HOST, registry: metrics.registry, transport, services: domain }));
      }
    } finally {
      parts.push(...inDrainOrder(started, transport, config.RPC_TIMEOUT_MS));
    }
    const drainMs = drainBoundMs({ rpcTimeoutMs: config.RPC_TIMEOUT_MS, drainDelayMs: config.DRAIN_DELAY_MS, gateway: hasGateway(config.SERVICES), domain: config.SERVICES.some((s) => s !== "gateway") });

    const mode = `${config.AMQP_URL ? "RabbitMQ" : "in-process bus"}, ${config.MONGODB_URL ? "MongoDB" : `embedded store in ${config.DATA_DIR}`}`;
    console.log(`Payrail running: ${config.SERVICES.join(", ")} (${mode}); drains within ${Math.ceil(drainMs / 1000)} s on SIGTERM`);
    const gateway = started.find((s) => s.name === "gateway");
    if (gateway?.url && cliAdminToken) parts.push(await writeCliAccess(config.DATA_DIR, { pid: process.pid, url: gateway.url, adminToken: cliAdminToken }));
    if (gateway?.url) {
      console.log(`  API:  ${gateway.url}`);
      console.log(`  Docs: ${gateway.url}/docs`);
      console.log(`  Dashboard: ${gateway.url}/dashboard`);
      console.log(`  Consumer portal: ${gateway.url}/account`);
    }
    const health = started.find((s) => s.name === "metrics-server");
    if (health?.url) console.log(`  Health and metrics: ${health.url}/healthz, /readyz, /metrics`);
    if (config.SERVICES.includes("identity")) {
      const demo = production ? null : await ensureDemoMerchant(config, transport);
      if (demo) console.log(`  Demo merchant ${demo.merchantId}, api-key: ${demo.apiKey}`);
      if (demo?.owner) console.log(`  Dashboard sign-in: ${demo.owner.email}, password: ${demo.owner.password}`);
    }
    stopOnSignals(parts, logger, drainMs);
  } catch (err) {
    await stopAll(parts, logger);
    throw err;
  }
}

const hasGateway = (services: readonly string[]) => services.includes("gateway");

/** `payrail` for the whole set in one process, else the services it runs (`payments`, `checkout+refunds`). */
function processName(services: readonly string[]): string {
  return services.length >= 5 ? "payrail" : services.join("+");
}
