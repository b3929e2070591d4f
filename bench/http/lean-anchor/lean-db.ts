/**
 * The lean anchor's storage: one SQLite file, one durable row per checkout. Durability as the
 * embedded store has it (WAL, synchronous=NORMAL), the uniqueness Create relies on declared in
 * the table, and the read by id scoped to its merchant served by the primary key.
 */
import { createHash } from "node:crypto";
import Database from "better-sqlite3";

export type LeanDb = Database.Database;

export function openLeanDb(path: string): LeanDb {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`
    CREATE TABLE IF NOT EXISTS api_keys (hash TEXT PRIMARY KEY, merchant_id TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS checkouts (
      id TEXT PRIMARY KEY,
      merchant_id TEXT NOT NULL,
      merchant_checkout_id TEXT NOT NULL,
      status TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (merchant_id, merchant_checkout_id)
    ) WITHOUT ROWID;
  `);
  return db;
}

/** The key is kept as its SHA-256, as identity keeps Payrail's. */
export function keyHash(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex");
}
