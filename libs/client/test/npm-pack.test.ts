import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(packageDir, "..", "..");

/** A merchant's script, plain JavaScript in a project of its own: what the package must serve. */
const MERCHANT_SCRIPT = `
import { createPayrailClient } from "@payrail/client";
const [baseUrl, apiKey] = process.argv.slice(2);
const payrail = createPayrailClient(baseUrl, { apiKey });
const body = JSON.parse(process.env.CHECKOUT_BODY);
const created = await payrail.POST("/api/merchants/checkout", { body });
if (created.error) throw new Error(JSON.stringify(created.error));
const got = await payrail.GET("/api/merchants/checkout/{checkout_id}", { params: { path: { checkout_id: created.data.id } } });
const refused = await createPayrailClient(baseUrl, { apiKey: "sk_test_" + "x".repeat(48) }).GET("/api/merchants/checkout");
console.log(JSON.stringify({ checkout: got.data, refused: { status: refused.response.status, code: refused.error?.error?.code } }));
`;

/** The same calls in TypeScript, checked against the package's declarations (a wrong path or field fails). */
const MERCHANT_TYPESCRIPT = `
import { createPayrailClient, type components } from "@payrail/client";
const payrail = createPayrailClient("http://127.0.0.1:8080", { apiKey: "sk_test_…" });
export async function statusOf(id: string): Promise<string | undefined> {
  const { data } = await payrail.GET("/api/merchants/checkout/{checkout_id}", { params: { path: { checkout_id: id } } });
  const checkout: components["schemas"]["Checkout"] | undefined = data;
  return checkout?.status;
}
// @ts-expect-error: a path the API does not have
void payrail.GET("/api/merchants/no_such_route");
`;

/**
 * Issue 24 item 10: the package a merchant installs. \`npm pack\` builds it (JavaScript and
 * declarations), the tarball is installed into a scratch project outside the repository (so no
 * workspace link can stand in for it), and that project calls a running Payrail with it.
 */
describe("@payrail/client as a merchant installs it", () => {
  let stack: Stack;
  let baseUrl: string;
  let apiKey: string;
  let scratch: string;
  const variant = embeddedVariant();

  beforeAll(async () => {
    stack = await startStack(variant);
    apiKey = (await stack.merchant("Acme")).apiKey;
    await stack.app.listen({ port: 0, host: "127.0.0.1" });
    baseUrl = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
    scratch = await mkdtemp(join(tmpdir(), "payrail-client-pack-"));
  }, 60_000);
  afterAll(async () => {
    // A pack that failed half-way leaves the workspace manifest replaced: put it back.
    if (existsSync(join(packageDir, "package.json.backup"))) await run("npx", ["clean-package", "restore"], { cwd: packageDir });
    await stack?.close();
    await variant.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("packs built JavaScript with declarations, installs from the tarball and calls a running Payrail", async () => {
    const packs = join(scratch, "packs");
    await mkdir(packs);
    await run("npm", ["pack", "--pack-destination", packs, "--silent"], { cwd: packageDir });
    const [tarball] = (await readdir(packs)).filter((f) => f.endsWith(".tgz"));
    expect(tarball).toMatch(/^payrail-client-\d+\.\d+\.\d+\.tgz$/);

    const project = join(scratch, "shop");
    await mkdir(project);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "shop", private: true, type: "module" }));
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(packs, tarball!)], { cwd: project });
    const installed = await readdir(join(project, "node_modules", "@payrail", "client"), { recursive: true });
    expect(installed).toEqual(expect.arrayContaining(["build/index.js", "build/index.d.ts", "README.md", "package.json"]));
    expect(installed.filter((f) => f.startsWith("src"))).toEqual([]);

    await writeFile(join(project, "shop.mjs"), MERCHANT_SCRIPT);
    const body = { ...sampleBody(), metadata: { order_ref: "A-1001" } };
    const { stdout } = await run(process.execPath, ["shop.mjs", baseUrl, apiKey], { cwd: project, env: { ...process.env, CHECKOUT_BODY: JSON.stringify(body) } });
    const answer = JSON.parse(stdout) as { checkout: Record<string, unknown>; refused: unknown };
    expect(answer.checkout).toMatchObject({ id: expect.stringMatching(/^chk_[0-9a-f]{32}$/), status: "open", merchant_checkout_id: body.merchant_checkout_id, metadata: body.metadata });
    expect(answer.refused).toEqual({ status: 401, code: "api_key_invalid" });

    await writeFile(join(project, "shop.ts"), MERCHANT_TYPESCRIPT);
    const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const compilerOptions = { noEmit: true, strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: [] };
    await writeFile(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["shop.ts"] }));
    const checked = await run(process.execPath, [tsc, "-p", "."], { cwd: project }).catch((err: { stdout?: string }) => err);
    expect("stdout" in checked ? checked.stdout : "").toBe("");
  }, 90_000);
});

function sampleBody() {
  const address = { name: "Ada Lovelace", address_1: "12 Analytical Row", city: "Springfield", zone_code: "IL", country_code: "US", postal_code: "62701" };
  return {
    amounts: { total: "107.50", subtotal: "100.00", tax: "5.00", shipping: "2.50", currency: "USD" },
    billing: address,
    shipping: address,
    platform: { platform_type: "custom" },
    merchant_checkout_id: `order-${Date.now()}`,
    merchant_user_id: "user-42",
    redirect_cancel_url: "https://shop.example/cancel",
    redirect_confirm_url: "https://shop.example/confirm",
    is_subscription: false,
    user_cohorts: [],
  };
}
