import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { isNedbFile } from "./nedb-migration.ts";
import { sqlName } from "./sql-expression.ts";
import { DATABASE_FILE } from "./sqlite-host.ts";

/**
 * Whether `dir` holds an embedded store's documents: a row in any collection of its SQLite
 * file, or the files of the nedb-based store it imports on first open. A file with empty
 * collections (a start that stopped before its first write) holds none. Read without the
 * store's own connection, before a process opens it; not while another process holds it.
 */
export function embeddedStoreHoldsData(dir: string): boolean {
  if (!existsSync(dir)) return false;
  if (readdirSync(dir).some(isNedbFile)) return true;
  const file = join(dir, DATABASE_FILE);
  if (!existsSync(file)) return false;
  // Not read-only: a read-only connection to a WAL database leaves its -wal and -shm files
  // behind, where the last read-write connection's close removes them.
  const db = new Database(file, { fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'c\\_%' ESCAPE '\\'").all() as { name: string }[];
    return tables.some(({ name }) => db.prepare(`SELECT 1 FROM ${sqlName(name)} LIMIT 1`).get() !== undefined);
  } finally {
    db.close();
  }
}
