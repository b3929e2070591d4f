import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { openApiDocument } from "../../../bin/openapi-document.ts";

it("is generated from the OpenAPI document the gateway serves now (run `npm run generate -w @payrail/client` if not)", async () => {
  const dir = await mkdtemp(join(tmpdir(), "payrail-client-"));
  try {
    const spec = join(dir, "openapi.json");
    const out = join(dir, "payrail-api.generated.ts");
    await writeFile(spec, JSON.stringify(await openApiDocument(), null, 2));
    await promisify(execFile)("npx", ["openapi-typescript", spec, "-o", out]);
    const committed = await readFile(new URL("../src/payrail-api.generated.ts", import.meta.url), "utf8");
    expect(await readFile(out, "utf8")).toBe(committed);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
