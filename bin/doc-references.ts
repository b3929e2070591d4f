import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findMissingReferences, isCheckedFile } from "./docs/doc-references.ts";

/*
 * `npm run lint:docs`: the repository stands alone. Fails, naming file and line, when a comment,
 * a doc or a configuration file cites a `*.md` document the repository does not hold (tracked
 * files and new ones not yet added; ignored files are not read).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
const paths = listed.split("\n").filter((path) => path !== "" && isCheckedFile(path) && existsSync(join(root, path)));
const files = paths.map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
const missing = findMissingReferences(files, (path) => existsSync(join(root, path)));

for (const m of missing) console.error(`${m.file}:${m.line}: cites ${m.reference}, which is not in the repository`);
if (missing.length > 0) {
  console.error(`${missing.length} reference(s) to documents outside the repository: cite the repository's own docs (docs/…) instead.`);
  process.exit(1);
}
console.log(`doc references: ${files.length} files checked, every cited .md document exists`);
