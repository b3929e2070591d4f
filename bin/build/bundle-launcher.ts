/**
 * Compiles the launcher (bin/payrail.ts, every command) into one ES module and its chunks:
 * `npm run build`'s dist/payrail.mjs, which production runs with plain `node`, and the copy
 * `npm run payrail` runs (bin/cli.mjs). One set of options for both, so the CLI a developer
 * runs is built as production's is.
 *
 * Our own code (bin/ and the @payrail/* workspace packages) is bundled; every third-party
 * package stays an `import` resolved from node_modules at run time. That keeps native modules
 * (better-sqlite3) and packages that read their own files (@fastify/swagger-ui's assets)
 * working unchanged, and the bundle small. The output must sit where those imports resolve
 * to the root node_modules (dist/ does; so does any folder whose parent chain has it).
 *
 * Uses the esbuild that tsx brings along.
 */
import { realpathSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Loader, type Plugin } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Its real path: esbuild reports resolved paths with symlinks followed (a node_modules that is a link, as in the launcher's test).
const ROOT_MODULES = realpathSync(join(ROOT, "node_modules")) + "/";
const BUILTINS = new Set(builtinModules);

/**
 * Bare imports of anything but `@payrail/*` stay external. Each one must resolve into the
 * root node_modules: a copy nested under a workspace (another version) would be bundled
 * against one version and run against the root's, so the build refuses it instead.
 */
const thirdPartyExternal: Plugin = {
  name: "third-party-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@payrail/") || args.pluginData === "probe") return undefined;
      const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0]!;
      if (args.path.startsWith("node:") || BUILTINS.has(name)) return { path: args.path, external: true };
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "probe" });
      if (found.errors.length === 0 && !found.path.startsWith(ROOT_MODULES)) {
        const where = relative(ROOT, found.path);
        return { errors: [{ text: `${args.path} resolves to ${where}, not the root node_modules: the bundle would load another copy` }] };
      }
      return { path: args.path, external: true };
    });
  },
};

const LOADERS: Record<string, Loader> = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".json": "json" };

/**
 * Reads every bundled file itself and keeps what it read: the caller learns exactly which
 * sources, with which contents, this build is made of (bin/cli.mjs runs a build only while its
 * sources still read the same). Read once, so an edit during the build cannot slip between
 * what was compiled and what was recorded.
 */
function recordSources(sources: Map<string, Uint8Array>): Plugin {
  return {
    name: "record-sources",
    setup(b) {
      b.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
        const contents = await readFile(args.path);
        sources.set(args.path, contents);
        return { contents, loader: LOADERS[extname(args.path)] ?? "default" };
      });
    },
  };
}

export interface BundledLauncher {
  /** Bytes written, source maps included. */
  bytes: number;
  /** Every file compiled into the bundle (absolute path), with the contents compiled. */
  sources: Map<string, Uint8Array>;
}

/** Builds bin/payrail.ts into `outfile` and its chunks beside it (under chunks/, cleared first). */
export async function bundleLauncher(outfile: string): Promise<BundledLauncher> {
  const sources = new Map<string, Uint8Array>();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["bin/payrail.ts"],
    // Code splitting: a module only imported dynamically (each command's module, the services,
    // the live providers' adapters) becomes a chunk of its own, so its imports are loaded when
    // that code runs, not at start (Plaid's SDK alone is ~90 MB of memory that a sandbox
    // process never needs; `payrail --help` loads commander alone). Without splitting, esbuild
    // hoists every external import of the bundle to its top.
    splitting: true,
    outdir: dirname(outfile),
    entryNames: basename(outfile, ".mjs"),
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    plugins: [thirdPartyExternal, recordSources(sources)],
    // Not minified, names kept: stack traces stay readable without the source map.
    keepNames: true,
    sourcemap: "linked",
    logLevel: "warning",
    write: false,
  });
  // Chunks are named by content hash: clear the old ones rather than let them pile up.
  await rm(join(dirname(outfile), "chunks"), { recursive: true, force: true });
  let bytes = 0;
  for (const file of result.outputFiles) {
    await mkdir(dirname(file.path), { recursive: true });
    // The entry's `#!/usr/bin/env -S npx tsx` is carried over; the bundle runs with plain node
    // (one line for one line, so the source map stays aligned).
    const text = file.path === outfile ? file.text.replace(/^#![^\n]*/, "#!/usr/bin/env node") : file.text;
    await writeFile(file.path, text);
    bytes += Buffer.byteLength(text);
  }
  return { bytes, sources };
}
