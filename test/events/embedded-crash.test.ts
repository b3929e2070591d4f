import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sampleEvent } from "../../libs/messaging/test/support/sample-events.ts";

const CHILD = join(import.meta.dirname, "embedded-events.child.ts");

/** Starts the child and resolves with it once its output contains every one of `lines`. */
function runChild(env: NodeJS.ProcessEnv, lines: string[], timeoutMs = 30_000): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not print ${lines.join(", ")} in time:\n${output}`)), timeoutMs);
    const check = () => {
      if (lines.every((line) => output.includes(line))) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", () => {
      check();
      clearTimeout(timer);
      reject(new Error(`child exited before printing ${lines.join(", ")}:\n${output}`));
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe("embedded mode: an event survives a crash between publish and handling", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("is handled after a restart when the process was SIGKILLed with its outbox already marked sent", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-crash-"));
    dirs.push(dataDir);
    const event = sampleEvent("refund.requested");

    // The relay published the event and emptied the outbox; the handler was running: kill -9.
    const first = await runChild({ DATA_DIR: dataDir, MODE: "hang", EVENT: JSON.stringify(event) }, ["marked", `handling ${event.id}`]);
    await killed(first.child);

    // Restarted: nothing in any outbox, yet the subscriber gets the event.
    const second = await runChild({ DATA_DIR: dataDir, MODE: "handle" }, [`handled ${event.id}`], 20_000);
    expect(second.output().match(new RegExp(`handled ${event.id}`, "g"))).toHaveLength(1);
    second.child.kill("SIGTERM");
  }, 60_000);
});
