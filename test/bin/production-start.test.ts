import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payrail, startPayrail } from "../support/payrail-process.ts";

/**
 * `NODE_ENV=production payrail start` (issue 24): providers chosen out loud, no demo merchant,
 * `/metrics` only on METRICS_PORT. Each start is its own process on its own data directory.
 */
describe("a production start", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "payrail-production-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("refuses, in one line saying why, when PROVIDERS is left to its sandbox default or a demo merchant is asked for", async () => {
    const dataDir = join(root, "refused");
    const [unchosen, demo] = await Promise.all([
      payrail({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0" }, "start"),
      payrail({ NODE_ENV: "production", PROVIDERS: "sandbox", DEMO_MERCHANT: "on", DATA_DIR: dataDir, PORT: "0" }, "start"),
    ]);
    expect(unchosen.code).toBe(1);
    expect(unchosen.stderr.trim()).toBe(
      "payrail: NODE_ENV=production needs PROVIDERS chosen explicitly: PROVIDERS=live with the providers' credentials, or PROVIDERS=sandbox to run on the simulators (no money moves)",
    );
    expect(demo.code).toBe(1);
    expect(demo.stderr.trim()).toBe("payrail: NODE_ENV=production never creates a demo merchant: unset DEMO_MERCHANT or set it to off");
    // Refused before anything was opened or written.
    await expect(readdir(dataDir)).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it("starts on sandbox providers said out loud, creates no demo merchant, and serves /metrics on METRICS_PORT only", async () => {
    const dataDir = join(root, "sandbox");
    const running = await startPayrail({ NODE_ENV: "production", PROVIDERS: "sandbox", DATA_DIR: dataDir, PORT: "0", METRICS_PORT: "0" }, /Health and metrics: \S+\/healthz/);
    try {
      const api = /API: +(http:\/\/\S+)/.exec(running.output())![1]!;
      const metrics = /Health and metrics: (http:\/\/\S+)\/healthz/.exec(running.output())![1]!;
      expect((await fetch(`${api}/healthz`)).status).toBe(200);
      const onApi = await fetch(`${api}/metrics`);
      expect(onApi.status).toBe(404);
      expect(((await onApi.json()) as { error: { code: string } }).error.code).toBe("route_not_found");
      const scraped = await fetch(`${metrics}/metrics`);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      // The gateway's HTTP series (the requests above) and the process's, on the one port.
      expect(text).toMatch(/payrail_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
      expect(text).toContain("process_cpu_seconds_total");
      expect(running.output()).not.toContain("Demo merchant");
      expect(await readdir(dataDir)).not.toContain("demo-merchant.json");
    } finally {
      await running.stop();
    }
  }, 120_000);

  it("keeps development convenient: /metrics on the API port and a demo merchant", async () => {
    const running = await startPayrail({ DATA_DIR: join(root, "development"), PORT: "0" }, /api-key: sk_test_\w+/);
    try {
      const api = /API: +(http:\/\/\S+)/.exec(running.output())![1]!;
      const scraped = await fetch(`${api}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("payrail_http_requests_total");
    } finally {
      await running.stop();
    }
  }, 120_000);
});
