import { spawn, type ChildProcess } from "node:child_process";

/**
 * Starts a TypeScript script as a child process (crash tests kill it) and resolves once its
 * output holds every one of `patterns`: a line's text, or a RegExp whose first group is
 * answered in `found`, in `patterns` order.
 */
export function runChildScript(
  script: string,
  env: NodeJS.ProcessEnv,
  patterns: readonly (string | RegExp)[],
  timeoutMs = 30_000,
): Promise<{ child: ChildProcess; output: () => string; found: string[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const matched = () => patterns.map((p) => (typeof p === "string" ? (output.includes(p) ? p : undefined) : p.exec(output)?.[1]));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not print ${patterns.join(", ")} in time:\n${output}`)), timeoutMs);
    const check = () => {
      const found = matched();
      if (found.every((f) => f !== undefined)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, found: found as string[] });
      }
    };
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    child.on("exit", () => {
      check();
      clearTimeout(timer);
      reject(new Error(`child exited before printing ${patterns.join(", ")}:\n${output}`));
    });
  });
}

/** SIGKILLs the child; resolves once it is gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
