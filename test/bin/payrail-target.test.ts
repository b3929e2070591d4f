import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payrailApiKey, payrailUrl } from "../../bin/payrail-target.ts";
import { freePort } from "../support/free-port.ts";
import { payrail } from "../support/payrail-process.ts";

/** `npm run demo` and `payrail listen` find Payrail and the merchant the same way (issue 24). */
describe("where the demo and listen find Payrail", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-target-"));
    await writeFile(join(dir, "demo-merchant.json"), JSON.stringify({ merchantId: "mer_x", apiKey: "sk_test_demo" }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads PAYRAIL_URL, else the old PAYRAIL_API, else the local PORT", () => {
    expect(payrailUrl({ PAYRAIL_URL: "http://a:1/", PAYRAIL_API: "http://b:2" })).toBe("http://a:1");
    expect(payrailUrl({ PAYRAIL_API: "http://b:2" })).toBe("http://b:2");
    expect(payrailUrl({ PORT: "9090" })).toBe("http://127.0.0.1:9090");
    expect(payrailUrl({})).toBe("http://127.0.0.1:8080");
  });

  it("takes PAYRAIL_API_KEY, else the demo merchant's key npm start kept in DATA_DIR", async () => {
    expect(await payrailApiKey({ PAYRAIL_API_KEY: "sk_test_env", DATA_DIR: dir })).toBe("sk_test_env");
    expect(await payrailApiKey({ DATA_DIR: dir })).toBe("sk_test_demo");
    expect(await payrailApiKey({ DATA_DIR: join(dir, "none") })).toBeNull();
  });

  it("makes `payrail listen` name the API it could not reach and why, found through the old name and the demo key", async () => {
    const port = await freePort();
    const run = await payrail({ PAYRAIL_API: `http://127.0.0.1:${port}`, DATA_DIR: dir }, "listen", "--forward-to", "http://127.0.0.1:3000/hooks");
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`payrail: could not reach the events API at http://127.0.0.1:${port}: connection refused: nothing is listening there (ECONNREFUSED)`);
    const noKey = await payrail({ DATA_DIR: join(dir, "none") }, "listen", "--forward-to", "http://127.0.0.1:3000/hooks");
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("listen needs --api-key <key> (or PAYRAIL_API_KEY, or the demo merchant of a `npm start` in DATA_DIR)");
  }, 60_000);
});
