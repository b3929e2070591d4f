import { posix } from "node:path";

/** A `*.md` document a file cites that is not in the repository. */
export interface MissingReference {
  file: string;
  line: number;
  reference: string;
}

/**
 * A path ending in `.md`, not inside a URL (no `/`, `:` or word character just before it) and not
 * the start of a longer name (`.mdx`). Wildcards such as `docs/*.md` are not references.
 */
const MD_REFERENCE = /(?<![\w@./:*-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.md)(?![\w-])/g;

/** The docs checks' own tests, whose fixtures cite missing documents on purpose. */
export const FIXTURE_FILES = new Set(["test/doc-references.test.ts", "test/docs.test.ts"]);

/** The files a check reads: sources, docs and configuration, never the lock file. */
export function isCheckedFile(path: string): boolean {
  if (path === "package-lock.json" || path.includes("node_modules/") || FIXTURE_FILES.has(path)) return false;
  return /\.(ts|mts|cts|js|mjs|cjs|md|json|ya?ml|sh|tpl)$/.test(path) || /(^|\/)Dockerfile$/.test(path);
}

/**
 * Where a reference may point: beside the citing file, or in any folder above it up to the
 * repository's root (a comment in `libs/store/src/x.ts` may cite `libs/store/README.md`,
 * `README.md` of its package, or `docs/api-notes.md` from the root). Paths leaving the
 * repository resolve nowhere.
 */
export function candidatePaths(file: string, reference: string): string[] {
  const candidates: string[] = [];
  let dir = posix.dirname(file);
  for (;;) {
    const joined = posix.normalize(posix.join(dir, reference));
    if (!joined.startsWith("../") && joined !== "..") candidates.push(joined);
    if (dir === "." || dir === "") break;
    dir = posix.dirname(dir);
  }
  return candidates;
}

/** Every `*.md` reference in these files that names no file of the repository. */
export function findMissingReferences(files: Array<{ path: string; text: string }>, exists: (path: string) => boolean): MissingReference[] {
  const missing: MissingReference[] = [];
  for (const { path, text } of files) {
    const lines = text.split("\n");
    lines.forEach((content, index) => {
      for (const match of content.matchAll(MD_REFERENCE)) {
        const reference = match[1]!;
        if (!candidatePaths(path, reference).some(exists)) missing.push({ file: path, line: index + 1, reference });
      }
    });
  }
  return missing;
}
