import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payrailEnv } from "./payrail-process.ts";

/** A running `npm start` as a newcomer gets it: the URL and the demo merchant's key it printed. */
export interface NpmStart {
  api: string;
  apiKey: string;
  stop(): Promise<void>;
}

/**
 * `npm start` (bin/start.mjs) in a child process on a fresh data directory, any free port and
 * embedded defaults (the broker, database and admin settings of the environment removed), once
 * it printed its API URL and the demo merchant's api-key.
 */
export async function startNpmStart(): Promise<NpmStart> {
  const dir = await mkdtemp(join(tmpdir(), "payrail-npm-start-"));
  const env = payrailEnv({ DATA_DIR: join(dir, "data"), PORT: "0" });
  const child: ChildProcess = spawn(process.execPath, ["bin/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  let out = "";
  try {
    const [api, apiKey] = await new Promise<[string, string]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), 60_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += String(chunk);
        const api = /API: +(http:\/\/\S+)/.exec(out);
        const key = /api-key: (sk_test_\w+)/.exec(out);
        if (api && key) {
          clearTimeout(timer);
          resolve([api[1]!, key[1]!]);
        }
      });
      child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
    });
    return { api, apiKey, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
