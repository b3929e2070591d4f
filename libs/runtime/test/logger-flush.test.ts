import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../src/index.ts";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./support/log-burst.script.ts", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));
const COUNT = 5_000; // ~1.3 MB: far more than a pipe holds, so writes are still in flight at exit

async function burst(mode: "signal" | "exit"): Promise<string[]> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", script, String(COUNT), mode], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return stdout.split("\n").filter(Boolean);
}

describe("the asynchronous stdout logger", () => {
  it("is the default: stdout through a non-blocking pino destination", () => {
    const stream = (createLogger() as unknown as Record<symbol, { sync?: boolean; fd?: number }>)[pino.symbols.streamSym];
    expect(stream).toMatchObject({ sync: false, fd: 1 });
  });

  it("writes every line, in order, before a graceful stop exits", async () => {
    const lines = await burst("signal");
    const numbered = lines.map((l) => JSON.parse(l) as { msg: string; i?: number }).filter((l) => l.msg === "line");
    expect(numbered.map((l) => l.i)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    expect(lines.at(-1)).toContain('"msg":"stopped"');
    expect(lines.join("\n")).toContain('"msg":"part stopped"');
  });

  it("exits at a second signal while the first one's drain still runs, through process.exit (its lines written), not the signal's default", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", script, "10", "stuck"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += String(chunk)));
    await vi.waitFor(() => expect(out.split("\n").filter((l) => l.includes('"msg":"line"'))).toHaveLength(10), { timeout: 30_000, interval: 50 });
    child.kill("SIGTERM");
    await vi.waitFor(() => expect(out).toContain('"msg":"part stopping"'), { timeout: 30_000, interval: 50 });
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code, signal] = (await exited) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 1, signal: null });
    expect(out).toContain('"msg":"draining"');
  });

  it("writes every line when the process calls process.exit", async () => {
    const lines = await burst("exit");
    expect(lines.filter((l) => l.includes('"msg":"line"'))).toHaveLength(COUNT);
  });
});
