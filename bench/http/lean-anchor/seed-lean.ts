/**
 * Seeds the lean anchor's file before its server starts: one merchant key and `count` checkouts
 * of the README body, in one transaction (the anchor has no architecture to go through).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { checkoutBody } from "../checkout-body.ts";
import type { Seeded } from "../seed.ts";
import { keyHash, openLeanDb } from "./lean-db.ts";

const SAMPLE_SIZE = 10_000;
const BATCH = 50_000;

export async function seedLeanAnchor(dir: string, count: number): Promise<Seeded & { dbPath: string }> {
  const dbPath = join(dir, "lean-anchor.sqlite");
  const db = openLeanDb(dbPath);
  const t0 = performance.now();
  try {
    const merchantId = `mer_${randomBytes(16).toString("hex")}`;
    const apiKey = `sk_test_${randomBytes(24).toString("hex")}`;
    db.prepare("INSERT INTO api_keys (hash, merchant_id) VALUES (?, ?)").run(keyHash(apiKey), merchantId);
    const insert = db.prepare("INSERT INTO checkouts (id, merchant_id, merchant_checkout_id, status, body, created_at) VALUES (?, ?, ?, 'open', ?, ?)");
    const sampleIds: string[] = [];
    const now = new Date().toISOString();
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = `chk_${randomBytes(16).toString("hex")}`;
        insert.run(id, merchantId, `seed-${i}`, JSON.stringify(checkoutBody(`seed-${i}`)), now);
        const slot = i < SAMPLE_SIZE ? i : Math.floor(Math.random() * (i + 1));
        if (slot < SAMPLE_SIZE) sampleIds[slot] = id;
      }
    });
    for (let from = 0; from < count; from += BATCH) batch(from, Math.min(count, from + BATCH));
    // No events: the anchor has none to deliver.
    return { merchantId, apiKey, sampleIds, seconds: (performance.now() - t0) / 1000, drainSeconds: 0, dbPath };
  } finally {
    db.close();
  }
}
