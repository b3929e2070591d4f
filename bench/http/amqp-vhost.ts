import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const VHOST = "payrail-bench";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * The broker URL for the bench's Payrail processes. The launcher has no queue prefix, so a
 * Payrail started by someone else on the same vhost would consume the bench's requests (and
 * the bench theirs). On a local broker with `rabbitmqctl` at hand the bench gets a vhost of its
 * own; otherwise it says so and uses the URL as given. A URL naming a vhost is used as is.
 */
export async function benchAmqpUrl(base: string): Promise<{ url: string; note: string }> {
  const parsed = new URL(base);
  const vhost = decodeURIComponent(parsed.pathname.slice(1));
  if (vhost !== "") return { url: base, note: `vhost "${vhost}" from the URL` };
  if (!LOCAL_HOSTS.has(parsed.hostname)) return { url: base, note: "default vhost (remote broker): run nothing else on it meanwhile" };
  const user = decodeURIComponent(parsed.username || "guest");
  try {
    const { stdout } = await run("rabbitmqctl", ["-q", "list_vhosts"], { timeout: 30_000 });
    if (!stdout.split("\n").some((line) => line.trim() === VHOST)) await run("rabbitmqctl", ["-q", "add_vhost", VHOST], { timeout: 30_000 });
    await run("rabbitmqctl", ["-q", "set_permissions", "-p", VHOST, user, ".*", ".*", ".*"], { timeout: 30_000 });
  } catch (err) {
    const reason = (err as Error).message.split("\n")[0];
    return { url: base, note: `default vhost (no vhost of its own: ${reason}): run no other Payrail on this broker meanwhile` };
  }
  parsed.pathname = `/${encodeURIComponent(VHOST)}`;
  return { url: parsed.toString(), note: `vhost "${VHOST}" (made with rabbitmqctl)` };
}

/** The URL without its credentials, for printing. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//");
}
