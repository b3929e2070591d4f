import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killed, runChildScript } from "../support/child-script.ts";

const CHILD = join(import.meta.dirname, "audit-log-crash.child.ts");

/**
 * The audit entry travels in the change's own write (docs/decisions/0054-audit-log.md): a
 * process killed after that write, before its relay published the entry (or after it published
 * it, before it marked it sent), still yields exactly one entry once it runs again.
 */
describe("embedded mode: an audited change killed before its entry was relayed", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it.each(["before", "after"] as const)("has its entry exactly once after a restart (killed %s the bus got it)", async (stall) => {
    const dataDir = await mkdtemp(join(tmpdir(), "payrail-audit-crash-"));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, SECRETS_KEY: randomBytes(32).toString("base64") };

    const first = await runChildScript(CHILD, { ...env, MODE: "write", STALL: stall }, [/merchant (mer_\w+)/, /key (\S+)/, /stalled (evt_\w+)/], 40_000);
    const [merchant, prefix] = first.found;
    await killed(first.child);

    const second = await runChildScript(CHILD, { ...env, MODE: "count", MERCHANT: merchant, PREFIX: prefix }, [/entries (\d+)/], 40_000);
    expect(second.found[0]).toBe("1");
    second.child.kill("SIGTERM");
  }, 90_000);
});
