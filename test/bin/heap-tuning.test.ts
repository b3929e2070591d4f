import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, PRODUCTION_NODE_FLAGS, heapGrowthFlag } from "../../bin/heap-tuning.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A child that keeps ~20 MB of objects alive while replacing them, so nearly every object is
 * promoted and then dies in the old generation (as requests still in flight during a scavenge
 * do): prints the largest old space it reached. A one-MB semi-space makes the promotion certain.
 */
async function peakOldSpaceMb(tuned: boolean): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    import { tuneHeapGrowth } from "./bin/heap-tuning.ts";
    if (${tuned}) tuneHeapGrowth([]);
    const N = 200000, ring = new Array(N);
    let peak = 0;
    for (let i = 0; i < 3000000; i++) {
      ring[i % N] = { a: i, b: [i, i + 1] };
      if (i % 50000 === 0) peak = Math.max(peak, getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_size);
    }
    console.log(peak / 1048576);`;
  const { stdout } = await run(process.execPath, ["--max-semi-space-size=1", "--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT });
  return Number(stdout.trim());
}

describe("heap tuning of payrail start", () => {
  it("sets the old generation's growth unless the command line chose it", () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(["--max-semi-space-size=8"])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(["--heap-growing-percent=50"])).toBeNull();
    expect(heapGrowthFlag(["--heap_growing_percent=50"])).toBeNull();
  });

  it("takes effect when set after start-up: promoted garbage is collected before the old space grows far", async () => {
    // Best of three each way: a GC thread starved by a busy machine can let one run overshoot.
    const plain: number[] = [];
    const tuned: number[] = [];
    for (let i = 0; i < 3; i++) {
      plain.push(await peakOldSpaceMb(false));
      tuned.push(await peakOldSpaceMb(true));
    }
    // V8's own growth lets this reach ~100 MB; at 20% it stays near the ~25 MB that is live.
    expect(Math.min(...tuned), `tuned ${tuned.join(", ")} MB, plain ${plain.join(", ")} MB`).toBeLessThan(Math.min(...plain) * 0.6);
  }, 60_000);

  it("is started by production with the node flags V8 reads only at start-up", async () => {
    const dockerfile = await readFile(join(ROOT, "Dockerfile"), "utf8");
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)![1]!;
    expect(JSON.parse(cmd)).toEqual(["node", ...PRODUCTION_NODE_FLAGS, "dist/payrail.mjs", "start"]);
    const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe(`node ${PRODUCTION_NODE_FLAGS.join(" ")} bin/start.mjs`);
  });
});
