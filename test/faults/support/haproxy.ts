import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { until } from "../../support/until.ts";

/** Debian's haproxy (`apt-get install haproxy`: `npm run test:rolling` needs it), or undefined. */
export function haproxyBinary(): string | undefined {
  return ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"].find((path) => existsSync(path));
}

/** How HAProxy health-checks the gateways: every `inter` ms, down after `fall` failures, up after `rise` successes. */
export const HEALTH_CHECK = { interMs: 400, fall: 3, rise: 1 };

/**
 * The load balancer of docs/guide/operator.md ("Behind a load balancer"), on loopback: the
 * gateways health-checked on `/readyz` (a draining gateway answers 503 at once, and is taken out
 * within `fall` checks, well inside its DRAIN_DELAY_MS), round-robin between the ones up, a
 * request whose connection was refused sent again to another (`retries`, `option redispatch`:
 * nothing was sent yet, so nothing runs twice). Stats as CSV on `statsPort` tell the test which
 * gateways HAProxy has up.
 */
export function haproxyConfig(options: { port: number; statsPort: number; gateways: { name: string; port: number }[] }): string {
  const { interMs, fall, rise } = HEALTH_CHECK;
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout check 3s",
    "  retries 3",
    "  option redispatch 1",
    "frontend api",
    `  bind 127.0.0.1:${options.port}`,
    "  default_backend gateways",
    "backend gateways",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    `  default-server inter ${interMs} fall ${fall} rise ${rise}`,
    ...options.gateways.map((g) => `  server ${g.name} 127.0.0.1:${g.port} check`),
    "listen stats",
    `  bind 127.0.0.1:${options.statsPort}`,
    "  stats enable",
    "  stats uri /stats",
    "",
  ].join("\n");
}

export interface Haproxy {
  url: string;
  /** The backend servers HAProxy has up now. */
  up(): Promise<Set<string>>;
  /** Resolves once exactly `names` are up (and no other). */
  waitUp(names: string[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHaproxy(binary: string, dir: string, options: Parameters<typeof haproxyConfig>[0]): Promise<Haproxy> {
  const file = join(dir, "haproxy.cfg");
  await writeFile(file, haproxyConfig(options));
  let stderr = "";
  const child: ChildProcess = spawn(binary, ["-db", "-f", file], { stdio: ["ignore", "ignore", "pipe"] });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const up = async () => {
    const reply = await fetch(`http://127.0.0.1:${options.statsPort}/stats;csv`);
    const rows = (await reply.text()).split("\n").map((line) => line.split(","));
    // Columns: pxname, svname, …, status (18th); the backend's own rows are named BACKEND/FRONTEND.
    return new Set(rows.filter((r) => r[0] === "gateways" && r[1] !== "BACKEND" && r[17] === "UP").map((r) => r[1]!));
  };
  await until(
    "haproxy to serve its stats",
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${stderr}`);
      return up().then(
        () => true,
        () => false,
      );
    },
    15_000,
  );
  return {
    url: `http://127.0.0.1:${options.port}`,
    up,
    async waitUp(names, timeoutMs = 30_000) {
      const want = [...names].sort().join(",");
      await until(`haproxy to have ${want} up`, async () => [...(await up())].sort().join(",") === want, timeoutMs);
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
