/**
 * `npm run build [-- --outfile <path>]`: compiles the launcher (bin/payrail.ts, every command)
 * into one ES module, dist/payrail.mjs, that production runs with plain `node`: no TypeScript
 * loader at run time (bin/build/bundle-launcher.ts says how), and prebuilds the consumer's
 * hosted page beside it.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writePageBuild } from "@payrail/hosted-page";
import { bundleLauncher } from "./build/bundle-launcher.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function outfileFromArgs(argv: string[]): string {
  const at = argv.indexOf("--outfile");
  return resolve(at >= 0 && argv[at + 1] ? argv[at + 1]! : join(ROOT, "dist", "payrail.mjs"));
}

const outfile = outfileFromArgs(process.argv.slice(2));
const { bytes } = await bundleLauncher(outfile);
// The consumer's hosted page, prebuilt beside the bundle (the gateway serves dist/page/).
await writePageBuild(dirname(outfile));
console.log(`built ${relative(process.cwd(), outfile) || outfile} and its chunks (${Math.round(bytes / 1024)} KiB with source maps), and the hosted page in ${relative(process.cwd(), join(dirname(outfile), "page"))}`);
