import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { openApiDocument } from "./openapi-document.ts";

/** `npm run openapi [-- --out file]`: prints or writes the OpenAPI document (`npm run lint` lints it). */
const { values } = parseArgs({ options: { out: { type: "string" } } });
const json = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
if (values.out) {
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, json);
} else process.stdout.write(json);
