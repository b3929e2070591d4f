/**
 * Bench only: Payrail embedded (every service in this process, in-process bus, embedded store),
 * wired by bin/wiring.ts as `payrail start` wires it, with BENCH_LEAVE_OUT=notices starting every
 * service but notices. `payrail start` refuses a partial service list on the in-process bus, and
 * the gateway's /readyz pings every domain service, so the left-out notices answer their ping
 * here and nothing else: no subscription to the events that cause notices, no worker sending
 * them. The full-flow rows "notices off" and "notices on" both run through this file (on the same
 * runtime), so their CPU per flow differs by the notices service alone.
 */
import { pingOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createLogger, loadConfig, SERVICE_NAMES, stopOnSignals, type Stoppable } from "@payrail/runtime";
import { inDrainOrder } from "../../../bin/drain-order.ts";
import { openStore, openTransport, startServices } from "../../../bin/wiring.ts";

const LEAVE_OUT = new Set((process.env["BENCH_LEAVE_OUT"] ?? "").split(",").filter(Boolean));
for (const name of LEAVE_OUT) if (name !== "notices") throw new Error(`BENCH_LEAVE_OUT: only notices can be left out, not "${name}"`);

const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, name: "payrail-variant" });
if (config.AMQP_URL || config.MONGODB_URL) throw new Error("payrail-variant runs embedded only (no AMQP_URL, no MONGODB_URL)");
const store = await openStore(config, logger);
const transport = await openTransport(config, logger);
const parts: Stoppable[] = [
  { name: "store", stop: () => store.close() },
  { name: "transport", stop: () => transport.close() },
];
if (LEAVE_OUT.has("notices")) {
  await transport.serve("notices", [
    handle(pingOp("notices"), async () => {
      await store.ping();
      return { service: "notices", ok: true as const };
    }),
  ]);
}
const names = SERVICE_NAMES.filter((s) => !LEAVE_OUT.has(s));
const started = await startServices(names, { config, logger, transport, store });
// Stopped last first: the gateway, the services, then the transport and the store.
parts.push(...inDrainOrder(started, transport, config.RPC_TIMEOUT_MS));
stopOnSignals(parts, logger);
console.log(`payrail-variant running: ${names.join(", ")}${LEAVE_OUT.size ? ` (left out: ${[...LEAVE_OUT].join(", ")})` : ""}`);
