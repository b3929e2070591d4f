/**
 * How the bench runs `payrail start`. By default as production does (README "Production"):
 * the launcher compiled by bin/build.ts, on plain node, with NODE_ENV=production. `--runtime tsx`
 * runs the TypeScript sources instead, as `npm start` does in development (tsx costs start-up
 * time and about 20 MB of RSS).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, tsxArgv } from "./servers.ts";

const run = promisify(execFile);
// Under the root so that the bundle's third-party imports resolve to the root node_modules;
// dist/ is ignored by git and eslint, and bench/ keeps out of `npm run build`'s dist/payrail.mjs.
const OUTFILE = join(ROOT, "dist", "bench", "payrail.mjs");

export type Runtime = "build" | "tsx";

export interface Launcher {
  runtime: Runtime;
  /** `node <argv>` runs `payrail start`. */
  argv: string[];
  env: Record<string, string>;
  /** The node flags of Payrail's processes (`--node-flags`), also given to the bench-only variant servers. */
  nodeFlags: string[];
  /** For the report's header. */
  description: string;
}

/** `nodeFlags` go before the script (`--node-flags`: e.g. the operator guide's memory-bound heap sizes). */
export async function payrailLauncher(runtime: Runtime, nodeFlags: readonly string[] = []): Promise<Launcher> {
  const flags = nodeFlags.length > 0 ? `, node flags ${nodeFlags.join(" ")}` : "";
  if (runtime === "tsx") {
    return { runtime, argv: [...nodeFlags, ...tsxArgv("bin/payrail.ts", "start")], env: {}, nodeFlags: [...nodeFlags], description: `\`payrail start\` from the TypeScript sources through tsx${flags}` };
  }
  if (!existsSync(join(ROOT, "bin", "build.ts"))) throw new Error("bin/build.ts not found: run with --runtime tsx");
  await run(process.execPath, tsxArgv("bin/build.ts", "--outfile", OUTFILE), { cwd: ROOT, timeout: 120_000 });
  return {
    runtime,
    argv: [...nodeFlags, OUTFILE, "start"],
    env: { NODE_ENV: "production" },
    nodeFlags: [...nodeFlags],
    description: `\`payrail start\` compiled by bin/build.ts, on plain node, NODE_ENV=production${flags}`,
  };
}
