import { execFile, spawn, type ChildProcess } from "node:child_process";

/** Variables of the test runner's environment a spawned Payrail must not inherit. */
const INHERITED = ["AMQP_URL", "MONGODB_URL", "SECRETS_KEY", "SERVICES", "ADMIN_TOKEN", "NODE_ENV", "PROVIDERS", "DEMO_MERCHANT", "METRICS_PORT", "PAYRAIL_URL", "PAYRAIL_API", "PAYRAIL_API_KEY"];

/** The environment of a spawned Payrail: the runner's, without its infrastructure, plus `env`. */
export function payrailEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  for (const key of INHERITED) delete out[key];
  return { ...out, ...env };
}

export interface RunningPayrail {
  child: ChildProcess;
  /** Everything it printed on stdout so far. */
  output(): string;
  /** Everything it printed on stderr so far (its log lines). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * `payrail start` in a child process (the TypeScript launcher, also under NODE_ENV=production),
 * resolved once it printed a line matching `ready`.
 */
export async function startPayrail(env: Record<string, string>, ready = /API: +http/): Promise<RunningPayrail> {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/payrail.ts", "start"], { env: payrailEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`payrail start did not come up:\n${out}${err}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += String(chunk);
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`payrail start exited (${code}):\n${out}${err}`)));
  });
  return {
    child,
    output: () => out,
    errors: () => err,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `payrail <args>` to completion in a child process. */
export function payrail(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runNode(env, ["--import", "tsx", "bin/payrail.ts", ...args]);
}

/** `node <nodeArgs>` to completion in a child process, in Payrail's environment plus `env`. */
export function runNode(env: Record<string, string>, nodeArgs: string[], timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArgs, { env: payrailEnv(env), timeout: timeoutMs }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
