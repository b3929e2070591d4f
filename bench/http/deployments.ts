/**
 * What runs for each kind of row, each server in a process of its own so that every row pays
 * the same process and loopback costs: the bare fastify baseline, the RPC → echo ceiling,
 * Payrail in one process (embedded), and Payrail as a gateway process plus a domain process
 * over RabbitMQ (on the embedded store, or on MONGODB_URL).
 */
import { performance } from "node:perf_hooks";
import { SERVICE_NAMES } from "@payrail/runtime";
import type { Launcher } from "./payrail-build.ts";
import { freePort, spawnServer, tsxArgv, waitReady, type ServerProcess } from "./servers.ts";

export interface Deployment {
  url: string;
  processes: ServerProcess[];
  /** Spawn of the first process → first 200 from its readiness URL. */
  startupS: number;
  stop(): Promise<void>;
}

/** Payrail settings of every bench server: sandbox providers, no rate limit in the way. */
export interface PayrailSettings {
  /** How `payrail start` runs: the compiled build on plain node, or the sources through tsx. */
  launcher: Launcher;
  logLevel: string;
  /** SHARED_LIMITS (docs/decisions/0049-shared-request-limits.md); the configuration's default when absent. */
  sharedLimits?: "auto" | "on" | "off";
  /** DATA_DIR, SECRETS_KEY and, for the MongoDB-wire rows, MONGODB_URL / MONGODB_DB. */
  storeEnv: Record<string, string>;
}

export function startBaseline(): Promise<Deployment> {
  return deploy(async (port) => [spawnServer("fastify hello", tsxArgv("bench/http/servers/hello.server.ts"), { PORT: String(port) })]);
}

export function startCeiling(amqpUrl: string, logLevel: string): Promise<Deployment> {
  return deploy(async (port) => {
    const env = { AMQP_URL: amqpUrl, LOG_LEVEL: logLevel };
    return [
      spawnServer("echo service", tsxArgv("bench/http/servers/echo-service.server.ts"), env),
      spawnServer("echo gateway", tsxArgv("bench/http/servers/echo-gateway.server.ts"), { ...env, HOST: "127.0.0.1", PORT: String(port) }),
    ];
  });
}

/** The lean anchor on its seeded SQLite file (bench/http/lean-anchor/seed-lean.ts). */
export function startLeanAnchor(dbPath: string): Promise<Deployment> {
  return deploy(async (port) => [spawnServer("lean anchor", tsxArgv("bench/http/servers/lean-anchor.server.ts"), { PORT: String(port), LEAN_DB: dbPath })]);
}

/** `payrail start` with every service in one process: in-process bus, embedded store. */
export function startEmbedded(settings: PayrailSettings): Promise<Deployment> {
  const env = (port: number) => ({ ...payrailEnv(settings, port), ...settings.storeEnv, SERVICES: "all" });
  return deploy(async (port) => [spawnServer("payrail", settings.launcher.argv, env(port))]);
}

/**
 * Bench only: Payrail embedded through bench/http/servers/payrail-variant.server.ts, with every
 * service or every service but `leaveOut`, on the launcher's node flags and NODE_ENV=production
 * (as the build runs), through tsx whatever --runtime says: the two variants of a comparison run
 * the same way.
 */
export function startEmbeddedVariant(settings: PayrailSettings, leaveOut: "notices" | null): Promise<Deployment> {
  const env = (port: number) => ({ ...payrailEnv(settings, port), ...settings.storeEnv, NODE_ENV: "production", BENCH_LEAVE_OUT: leaveOut ?? "" });
  const argv = [...settings.launcher.nodeFlags, ...tsxArgv("bench/http/servers/payrail-variant.server.ts")];
  return deploy(async (port) => [spawnServer(leaveOut ? `payrail without ${leaveOut}` : "payrail", argv, env(port))]);
}

/** Every domain service: the gateway pings each for /readyz, so one left out keeps it from being ready. */
const DOMAIN_SERVICES = SERVICE_NAMES.filter((s) => s !== "gateway").join(",");

/**
 * `domainReplicas` processes of every domain service (SERVICE_NAMES but the gateway; 1 unless
 * given) and a gateway process on RabbitMQ. Replicas share the store and take turns on each
 * queue, as a deployment's do.
 */
export function startRabbitMq(settings: PayrailSettings, amqpUrl: string, domainReplicas = 1): Promise<Deployment> {
  return deploy(async (port) => {
    const env = { ...payrailEnv(settings, port), AMQP_URL: amqpUrl };
    const { argv } = settings.launcher;
    const domains = Array.from({ length: domainReplicas }, (_, i) =>
      spawnServer(domainReplicas === 1 ? "domain" : `domain ${i + 1}`, argv, { ...env, ...settings.storeEnv, SERVICES: DOMAIN_SERVICES }),
    );
    // The gateway holds no data, so it gets no store settings.
    const gateway = spawnServer("gateway", argv, { ...env, SERVICES: "gateway" });
    return [...domains, gateway];
  });
}

function payrailEnv(settings: PayrailSettings, port: number): Record<string, string> {
  return {
    ...settings.launcher.env,
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL: settings.logLevel,
    ...(settings.sharedLimits ? { SHARED_LIMITS: settings.sharedLimits } : {}),
    PROVIDERS: "sandbox",
    DEMO_MERCHANT: "off",
    // Several processes on one host: in production each serves /metrics on a port of its own (any free one).
    METRICS_PORT: "0",
    // One merchant key sends every request of a row: the per-key limit would measure itself.
    RATE_LIMIT_PER_MINUTE: "1000000000",
    // One client address starts every flow, each with a code sent: the sandbox's 1,000 an hour
    // per address (and 5,000 in all) stop a flow row of a few seconds at more than 150 flows/s.
    SEND_CODE_PER_ADDRESS_PER_HOUR: "1000000000",
    SEND_CODE_PER_HOUR: "1000000000",
  };
}

async function deploy(spawnAll: (port: number) => Promise<ServerProcess[]>): Promise<Deployment> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const processes = await spawnAll(port);
  const stop = async () => {
    // Last started first: the gateway stops taking requests before the services go.
    for (const p of [...processes].reverse()) await p.stop();
  };
  try {
    await waitReady(`${url}/readyz`, processes);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, processes, startupS: (performance.now() - t0) / 1000, stop };
}
