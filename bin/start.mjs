// `npm start`. With NODE_ENV=production it runs the compiled launcher (dist/payrail.mjs, from
// `npm run build`) with plain node; otherwise the TypeScript sources through tsx, so a change
// needs no build. Plain JavaScript on purpose: in production there is no TypeScript loader.
// Both run in this process (no child to relay signals to), as `payrail start`.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const production = process.env.NODE_ENV === "production";
const target = fileURLToPath(new URL(production ? "../dist/payrail.mjs" : "./payrail.ts", import.meta.url));

if (production && !existsSync(target)) {
  console.error(`payrail: ${target} not found. NODE_ENV=production runs the compiled build: run \`npm run build\` first.`);
  process.exit(1);
}
if (!production) {
  const { register } = await import("tsx/esm/api");
  register();
}
// The launcher reads its command from argv, as if started as `<target> start [args]`
// (`npm start -- --help` prints start's help).
process.argv.splice(1, process.argv.length, target, "start", ...process.argv.slice(2));
await import(pathToFileURL(target).href);
