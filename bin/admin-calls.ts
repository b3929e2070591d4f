import { loadConfig, type ServiceName } from "@payrail/runtime";
import type { AdminCall } from "./admin-call.ts";
import { adminOverHttp } from "./admin-over-http.ts";
import { readCliAccess } from "./cli-access.ts";
import { runningPid } from "./pid-file.ts";

/**
 * Runs admin calls: through the admin routes of the `payrail start` that holds the embedded
 * store when one does (it wrote how to reach it, cli-access.ts), else as `withServices`. That
 * one (the store, the transport, the services) is loaded only when it is the way: beside a
 * running Payrail a command loads none of it.
 */
export async function withAdminCalls(services: readonly ServiceName[], work: (call: AdminCall) => Promise<void>): Promise<void> {
  const config = loadConfig();
  if (!config.AMQP_URL && !config.MONGODB_URL) {
    const pid = await runningPid(config.DATA_DIR);
    const access = pid === null ? null : await readCliAccess(config.DATA_DIR, pid);
    if (access) return work(adminOverHttp(access));
  }
  const { withServices } = await import("./cli-services.ts");
  return withServices(services, ({ call }) => work(call));
}
