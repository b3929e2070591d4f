import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walkThrough } from "../../bin/demo/walk-through.ts";

/**
 * `npm run demo` against `npm start`, as a newcomer runs them: a fresh data directory, the
 * demo merchant `npm start` prints, and the README's walk-through through the typed client
 * generated from the OpenAPI document.
 */
describe("the walk-through against npm start", () => {
  let dir: string;
  let child: ChildProcess;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-demo-"));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(dir, "data"), PORT: "0", LOG_LEVEL: "warn" };
    for (const key of ["AMQP_URL", "MONGODB_URL", "SECRETS_KEY", "SERVICES", "ADMIN_TOKEN", "NODE_ENV"]) delete env[key];
    child = spawn(process.execPath, ["bin/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), 60_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += String(chunk);
        const api = /API: +(http:\/\/\S+)/.exec(out);
        const key = /api-key: (sk_test_\w+)/.exec(out);
        if (api && key) {
          clearTimeout(timer);
          [baseUrl, apiKey] = [api[1]!, key[1]!];
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
    });
  }, 90_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("settles a one-off payment, cancels a subscription and completes a refund, printing each step", async () => {
    const lines: string[] = [];
    const result = await walkThrough(baseUrl, apiKey, (line) => lines.push(line));
    expect(result.paidCheckout.status).toBe("paid");
    expect(result.cancelledSubscription).toEqual({ message: expect.stringMatching(/^user \+1415555\d{4} is unsubscribed$/), subscription_status: "cancelled" });
    expect(result.completedRefund.status).toBe("completed");
    for (const n of [" 1.", " 4.", " 8.", "10.", "11.", "13.", "14."]) expect(lines.some((l) => l.startsWith(n)), n).toBe(true);
  }, 90_000);
});
