import { mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type { Logger } from "@payrail/runtime";
import { assertCollectionName } from "../shared/collection-name.ts";
import { arrayPaths } from "./multikey-paths.ts";
import { insertSql } from "./key-columns.ts";
import type { CollectionState } from "./sqlite-host.ts";

type Doc = Record<string, unknown>;

/** The files the nedb-based store kept: one `<collection>.db` each, and its index list. */
const NEDB_INDEX_FILE = "_indexes.meta";

/** A file of the nedb-based store, which the embedded store imports on first open. */
export const isNedbFile = (name: string): boolean => name === NEDB_INDEX_FILE || (name.endsWith(".db") && !name.startsWith("."));

const MIGRATED_KEY = "nedb_migrated_at";

/**
 * Imports a DATA_DIR written by the earlier nedb-based embedded store, once, on first open:
 * every document of every `<collection>.db` goes into SQLite in one transaction, and the nedb
 * files are then moved to `nedb-backup-<time>/` beside it (never deleted). Index definitions
 * are not copied: each service declares its indexes again when it starts. A crash after the
 * commit leaves the files in place; the `_meta` mark says they were imported, so they are
 * only moved. A datafile that cannot be read refuses the start with the file's name.
 */
export function migrateNedbFiles(db: Database.Database, dir: string, state: (name: string) => CollectionState, log: Logger): void {
  const files = readdirSync(dir).filter(isNedbFile);
  if (files.length === 0) return;
  const already = db.prepare("SELECT value FROM _meta WHERE key = ?").get(MIGRATED_KEY) as { value: string } | undefined;
  let imported = 0;
  if (!already) {
    const collections = files.filter((f) => f.endsWith(".db")).map((f) => ({ name: f.slice(0, -3), docs: readNedbFile(join(dir, f)) }));
    db.transaction(() => {
      for (const { name, docs } of collections) {
        assertCollectionName(name);
        const { table, arrays, keyPaths } = state(name);
        const insert = db.prepare(insertSql(table, keyPaths));
        const remember = db.prepare("INSERT OR IGNORE INTO _array_paths (collection, path) VALUES (?, ?)");
        for (const doc of docs) {
          insert.run({ id: String(doc._id), doc: JSON.stringify(doc) });
          for (const path of arrayPaths(doc)) {
            if (arrays.has(path)) continue;
            arrays.add(path);
            remember.run(name, path);
          }
          imported++;
        }
      }
      db.prepare("INSERT INTO _meta (key, value) VALUES (?, ?)").run(MIGRATED_KEY, new Date().toISOString());
    }).immediate();
  }
  const backup = join(dir, `nedb-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  mkdirSync(backup, { recursive: true });
  for (const file of files) renameSync(join(dir, file), join(backup, file));
  log.warn({ documents: imported, files: files.length, backup }, "imported the nedb data files into SQLite; the originals were moved aside");
}

/**
 * nedb's append-only format: one JSON document per line, the last line for an `_id` wins,
 * `{"$$deleted": true, "_id"}` removes it, `$$index…` lines describe indexes, and dates are
 * `{"$$date": ms}`. A half-written last line (a crash mid-append) is skipped as nedb does.
 */
export function readNedbFile(path: string): Doc[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const docs = new Map<string, Doc>();
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let doc: Doc;
    try {
      doc = JSON.parse(line, (_key, value: unknown) => (isNedbDate(value) ? new Date(value.$$date).toISOString() : value)) as Doc;
    } catch {
      if (i >= lines.length - 2) return; // the torn last line of a crashed append
      throw new Error(`cannot import nedb file ${path}: line ${i + 1} is not JSON`);
    }
    if ("$$indexCreated" in doc || "$$indexRemoved" in doc) return;
    if (doc.$$deleted === true) docs.delete(String(doc._id));
    else docs.set(String(doc._id), doc);
  });
  return [...docs.values()];
}

function isNedbDate(value: unknown): value is { $$date: number } {
  return value !== null && typeof value === "object" && typeof (value as { $$date?: unknown }).$$date === "number";
}
