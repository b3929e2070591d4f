// `npm run payrail -- …`: the command line compiled, as production runs it (dist/payrail.mjs),
// so that a command does not first spend seconds compiling TypeScript (issue 39): each command
// then loads only what it uses (bin/payrail.ts). The build lives in
// node_modules/.cache/payrail-cli/builds/<digest>/ and is made again on demand: current.json
// names every file the last build was compiled from, and that build runs only while each of
// them still reads byte for byte as it did then (a digest over their paths and contents; an
// edit, a checkout or a deleted file makes a new build first, ~3 s). Never a stale build, and
// no step to remember after an edit. Plain JavaScript on purpose: the check must not itself
// need a TypeScript loader; tsx is registered only to build.
//
// `payrail start` is the exception: it runs from the sources through tsx, as `npm start` does,
// so a server started this way builds the hosted page from the tree too (the CLI's build has no
// page build beside it).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// PAYRAIL_CLI_CACHE moves the cache (the launcher's test and bench:cli use their own); the
// build's imports of third-party packages resolve from where it lies, so it must lie below a
// folder whose parent chain holds the repository's node_modules.
const CACHE = process.env.PAYRAIL_CLI_CACHE ? resolve(process.env.PAYRAIL_CLI_CACHE) : join(ROOT, "node_modules", ".cache", "payrail-cli");
const BUILDS = join(CACHE, "builds");
const STATE = join(CACHE, "current.json");
/** What makes the build without being compiled into it: a change to these is a change to the build. */
const BUILDER = ["bin/build/bundle-launcher.ts", "node_modules/esbuild/package.json"];
/**
 * Builds kept besides the current one: a command still running from an older build may yet
 * import one of its chunks (they load when first used).
 */
const KEEP_OLDER = 2;

/** One digest of files (paths relative to the repository, contents): equal digests, equal sources. */
function digest(files) {
  const hash = createHash("sha256");
  for (const [path, contents] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(`${path}\0${contents.length}\0`).update(contents);
  }
  return hash.digest("hex").slice(0, 32);
}

const read = (path) => readFileSync(resolve(ROOT, path));

/** The last build's entry when every file it was made from is unchanged; else null. */
function currentBuild() {
  let state;
  try {
    state = JSON.parse(readFileSync(STATE, "utf8"));
  } catch {
    return null;
  }
  const entry = join(BUILDS, String(state.digest), "payrail.mjs");
  if (!Array.isArray(state.inputs) || !existsSync(entry)) return null;
  try {
    return digest(state.inputs.map((path) => [path, read(path)])) === state.digest ? entry : null;
  } catch {
    return null; // a source is gone: the tree changed
  }
}

/** Builds into a directory of its own, then renames it into place: concurrent runs never see half a build. */
async function buildNow() {
  // Read before tsx compiles them: what is recorded is what builds.
  const builder = BUILDER.map((path) => [path, read(path)]);
  const { register } = await import("tsx/esm/api");
  register();
  const { bundleLauncher } = await import("./build/bundle-launcher.ts");
  mkdirSync(BUILDS, { recursive: true });
  const tmp = mkdtempSync(join(BUILDS, ".tmp-"));
  let sources;
  try {
    ({ sources } = await bundleLauncher(join(tmp, "payrail.mjs")));
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const files = new Map([...builder, ...[...sources].map(([path, contents]) => [relative(ROOT, path), contents])]);
  const made = digest(files);
  try {
    renameSync(tmp, join(BUILDS, made));
  } catch (err) {
    // Another run built the same sources first: theirs is as good.
    if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err;
    rmSync(tmp, { recursive: true, force: true });
  }
  const state = `${STATE}.${process.pid}`;
  writeFileSync(state, JSON.stringify({ digest: made, inputs: [...files.keys()] }));
  renameSync(state, STATE);
  prune(made);
  return join(BUILDS, made, "payrail.mjs");
}

/** Removes builds but the current one and the KEEP_OLDER newest, and unfinished ones left by a run that died (over an hour old). */
function prune(current) {
  const builds = readdirSync(BUILDS).map((name) => ({ name, mtime: statSync(join(BUILDS, name)).mtimeMs }));
  const finished = builds.filter((b) => !b.name.startsWith(".tmp-") && b.name !== current).sort((a, b) => b.mtime - a.mtime);
  const abandoned = builds.filter((b) => b.name.startsWith(".tmp-") && b.mtime < Date.now() - 3_600_000);
  for (const b of [...finished.slice(KEEP_OLDER), ...abandoned]) rmSync(join(BUILDS, b.name), { recursive: true, force: true });
}

if (process.argv.slice(2).find((arg) => !arg.startsWith("-")) === "start") {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./payrail.ts");
} else {
  let entry = currentBuild();
  if (!entry) {
    try {
      entry = await buildNow();
    } catch (err) {
      console.error(`payrail: the command line did not build: ${err.message}`);
      process.exit(1);
    }
  }
  await import(pathToFileURL(entry).href);
}
