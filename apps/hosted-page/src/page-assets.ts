import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One built file of the page, served under `/pay/assets/<name>`. */
export interface PageAsset {
  body: Buffer;
  contentType: string;
}

export interface PageAssets {
  /** The page's HTML with the hashed asset names filled in; `{{MODE}}` still to replace. */
  html: string;
  /** By hashed file name (`main-<hash>.js`): content-addressed, so cacheable for a year. */
  assets: ReadonlyMap<string, PageAsset>;
  /** The consumer portal's live bank-account script (Plaid Link, the hosted page's loader): its URL. */
  portalRelinkScript: string;
}

/**
 * Where `npm run build` leaves the built page: dist/page/ beside dist/payrail.mjs. This module is
 * in that file, or in a chunk under dist/chunks/ when the services are loaded lazily.
 */
const PREBUILT = [new URL("./page/", import.meta.url), new URL("../page/", import.meta.url)];
/** The page's sources, for a process that runs from the TypeScript (npm start, tests). */
const SOURCES = new URL("../page/", import.meta.url);

let cached: Promise<PageAssets> | undefined;

/**
 * The hosted page, built once per process: read from `npm run build`'s output when there is
 * one, else bundled in memory from its sources with esbuild (tsx's, ~50 ms), so `npm start` and
 * the tests need no build step of their own.
 */
export function pageAssets(): Promise<PageAssets> {
  cached ??= loadPrebuilt().then((found) => found ?? buildPage());
  // A failed build is retried on the next request rather than cached.
  cached.catch(() => (cached = undefined));
  return cached;
}

async function loadPrebuilt(): Promise<PageAssets | null> {
  for (const dir of PREBUILT) {
    const found = await loadPrebuiltFrom(dir);
    if (found) return found;
  }
  return null;
}

async function loadPrebuiltFrom(dir: URL): Promise<PageAssets | null> {
  let manifest: { html: string; portalRelinkScript: string; assets: Record<string, string> };
  try {
    manifest = JSON.parse(await readFile(new URL("manifest.json", dir), "utf8"));
  } catch {
    return null;
  }
  // A build from before the portal's script: built again from the sources.
  if (!manifest.portalRelinkScript) return null;
  const assets = new Map<string, PageAsset>();
  for (const [name, contentType] of Object.entries(manifest.assets)) {
    assets.set(name, { body: await readFile(new URL(name, dir)), contentType });
  }
  return { html: manifest.html, portalRelinkScript: manifest.portalRelinkScript, assets };
}

/**
 * Bundles and minifies the page's script and styles, and the portal's live bank-account script
 * (which imports the page's Plaid Link loader: one loader for both); names carry a hash of their
 * content.
 */
export async function buildPage(): Promise<PageAssets> {
  // Loaded only here: a process serving a prebuilt page never loads esbuild.
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: ["main.ts", "style.css", "portal-relink.ts"].map((file) => fileURLToPath(new URL(file, SOURCES))),
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2020",
    write: false,
    outdir: "/page",
    logLevel: "silent",
  });
  const assets = new Map<string, PageAsset>();
  const names: Record<string, string> = {};
  for (const file of result.outputFiles) {
    const ext = file.path.endsWith(".css") ? "css" : "js";
    // The page's stylesheet keeps its script's name (`main-<hash>.css`).
    const entry = ext === "css" ? "main" : basename(file.path, ".js");
    const hash = createHash("sha256").update(file.contents).digest("hex").slice(0, 12);
    const name = `${entry}-${hash}.${ext}`;
    names[`${entry}.${ext}`] = name;
    assets.set(name, { body: Buffer.from(file.contents), contentType: ext === "css" ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8" });
  }
  const template = await readFile(new URL("index.html", SOURCES), "utf8");
  const html = template.replace("{{SCRIPT}}", `/pay/assets/${names["main.js"]}`).replace("{{STYLE}}", `/pay/assets/${names["main.css"]}`);
  return { html, portalRelinkScript: `/pay/assets/${names["portal-relink.js"]}`, assets };
}

/**
 * `npm run build`: writes the built page beside the bundle (`<dir>/page/`), where a process
 * running that bundle finds it (a production image has no page sources to build from).
 */
export async function writePageBuild(dir: string): Promise<void> {
  const page = await buildPage();
  const out = join(dir, "page");
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const assets: Record<string, string> = {};
  for (const [name, asset] of page.assets) {
    await writeFile(join(out, name), asset.body);
    assets[name] = asset.contentType;
  }
  await writeFile(join(out, "manifest.json"), JSON.stringify({ html: page.html, portalRelinkScript: page.portalRelinkScript, assets }));
}
