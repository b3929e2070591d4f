/**
 * Store-level comparison of MongoDB-wire servers (FerretDB v1 on SQLite vs on PostgreSQL, or a
 * real MongoDB), through the same `createMongoStore` adapter the services use, so FerretDB's
 * write lock is part of what is measured.
 *
 *   FERRETDB_BACKEND=sqlite FERRETDB_PORT=27018 bash scripts/infra-up.sh
 *   FERRETDB_BACKEND=postgresql FERRETDB_PORT=27019 bash scripts/infra-up.sh
 *   BENCH_SERVERS=sqlite=mongodb://127.0.0.1:27018,postgresql=mongodb://127.0.0.1:27019 \
 *     npx tsx bench/ferretdb-compare.ts
 *
 * For each size (BENCH_SIZES, default 1000,10000) it seeds that many checkout-like documents of
 * one merchant (the one-client case: its list query sorts all of them) with the checkout
 * service's indexes, then, at 1 and 16 callers in flight, for BENCH_SECONDS (2) each:
 *   get     findOne({_id, merchantId})                         (Get checkout)
 *   list    find({merchantId}, sort {number: -1}, limit 20)   (List checkouts)
 *   update  findOneAndUpdate({_id, status: "open"}, {$set})    (a conditional write)
 * Servers are measured one after the other per cell, so background load hits them alike. It
 * prints ops/s and p99 per cell, the seeding rate, each FerretDB's resident memory (found by
 * port in .infra/ferretdb*\/ferretdb.pid) and what `explain` says FerretDB pushed down.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { silentLogger } from "@payrail/runtime";
import { type Collection, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";

const SERVERS = (process.env["BENCH_SERVERS"] ?? "sqlite=mongodb://127.0.0.1:27018,postgresql=mongodb://127.0.0.1:27019")
  .split(",")
  .map((entry) => {
    const [name, url] = entry.split("=") as [string, string];
    return { name, url };
  });
const SIZES = (process.env["BENCH_SIZES"] ?? "1000,10000").split(",").map(Number);
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 2);
const IN_FLIGHT = [1, 16];
const MERCHANT = "mer_bench";
const DB_PREFIX = "bench_ferretdb";

interface CheckoutDoc {
  _id: string;
  merchantId: string;
  number: number;
  merchantCheckoutId: string;
  status: string;
  [field: string]: unknown;
}

function checkout(i: number): CheckoutDoc {
  const address = { name: "Ada Lovelace", address_1: "12 Analytical Row", city: "Springfield", zone_code: "IL", country_code: "US", postal_code: "62701" };
  return {
    _id: `chk_${String(i).padStart(8, "0")}`,
    merchantId: MERCHANT,
    number: i + 1,
    merchantCheckoutId: `order-${i}`,
    merchantUserId: `user-${i % 97}`,
    status: "open",
    amounts: { total: 10750, subtotal: 10000, tax: 500, shipping: 250, currency: "USD" },
    billing: address,
    shipping: address,
    platform: { platform_type: "custom" },
    redirectCancelUrl: "https://shop.example/cancel",
    redirectConfirmUrl: "https://shop.example/confirm",
    isSubscription: false,
    userCohorts: "[]",
    createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    updatedAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  };
}

interface Cell {
  ops: number;
  opsPerSec: number;
  p99: number;
  errors: number;
}

async function drive(inFlight: number, op: (n: number) => Promise<void>): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async (_, id) => {
      for (let n = id; performance.now() < deadline; n += inFlight) {
        const t0 = performance.now();
        try {
          await op(n);
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const ms = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))] ?? NaN;
  return { ops: latencies.length, opsPerSec: (latencies.length * 1000) / ms, p99, errors };
}

/** Resident memory (current and peak, MB) of the FerretDB infra-up.sh started on the URL's port. */
function ferretMemory(url: string): string {
  const port = new URL(url).port || "27017";
  const dir = port === "27017" ? ".infra/ferretdb" : `.infra/ferretdb-${port}`;
  try {
    const pid = readFileSync(`${dir}/ferretdb.pid`, "utf8").trim();
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(/(\d+) kB/.exec(status.split("\n").find((l) => l.startsWith(field)) ?? "")?.[1] ?? NaN);
    return `${Math.round(kb("VmRSS:") / 1024)} MB (peak ${Math.round(kb("VmHWM:") / 1024)} MB)`;
  } catch {
    return "n/a (not started by infra-up.sh)";
  }
}

/** What FerretDB's explain says it pushed down to its backend, for the three query shapes. */
async function explainPushdown(url: string, dbName: string): Promise<string> {
  // The bench is a tool outside the services: it may talk to the driver for `explain`.
  const { MongoClient } = await import("mongodb");
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000 });
  try {
    const db = client.db(dbName);
    const shapes: Record<string, object> = {
      get: { find: "checkouts", filter: { _id: "chk_00000001", merchantId: MERCHANT } },
      list: { find: "checkouts", filter: { merchantId: MERCHANT }, sort: { number: -1 }, limit: 20 },
      update: { find: "checkouts", filter: { _id: "chk_00000001", status: "open" } },
    };
    const parts: string[] = [];
    for (const [name, command] of Object.entries(shapes)) {
      const out = await db.command({ explain: command });
      const flags = ["filterPushdown", "sortPushdown", "limitPushdown"].map((f) => `${f.replace("Pushdown", "")}=${String(out[f] ?? "?")}`);
      parts.push(`${name}: ${flags.join(" ")}`);
    }
    return parts.join("; ");
  } catch (err) {
    return `explain failed: ${(err as Error).message}`;
  } finally {
    await client.close();
  }
}

async function seed(col: Collection<CheckoutDoc>, size: number): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < size; i = next++) await col.insertOne(checkout(i));
    }),
  );
  return (size * 1000) / (performance.now() - t0);
}

async function main(): Promise<void> {
  const logger = silentLogger();
  console.log(`FerretDB backends, store level (${SECONDS}s per cell, ${new Date().toISOString()})`);
  for (const size of SIZES) {
    const dbName = `${DB_PREFIX}_${size}`;
    const opened: { name: string; url: string; store: Store; col: Collection<CheckoutDoc> }[] = [];
    for (const { name, url } of SERVERS) {
      const store = createMongoStore({ url, dbName, logger, serverSelectionTimeoutMS: 5_000 });
      await store.drop();
      const col = store.collection<CheckoutDoc>("checkouts");
      await col.createIndex({ keys: { merchantId: 1, number: -1 } });
      await col.createIndex({ keys: { merchantId: 1, merchantCheckoutId: 1 }, unique: true });
      const rate = await seed(col, size);
      console.log(`\n[${size} docs] ${name}: seeded at ${rate.toFixed(0)} inserts/s (8 in flight); FerretDB RSS ${ferretMemory(url)}`);
      opened.push({ name, url, store, col });
    }
    console.log(`${"op".padEnd(8)}${"in flight".padStart(10)}${opened.map((o) => `${o.name} ops/s`.padStart(18) + `p99 ms`.padStart(9)).join("")}`);
    const ops: Record<string, (col: Collection<CheckoutDoc>) => (n: number) => Promise<void>> = {
      get: (col) => async (n) => {
        const id = checkout((n * 7919) % size)._id;
        if (!(await col.findOne({ _id: id, merchantId: MERCHANT }))) throw new Error(`missing ${id}`);
      },
      list: (col) => async () => {
        const page = await col.find({ merchantId: MERCHANT }, { sort: { number: -1 }, limit: 20 });
        if (page.length !== Math.min(20, size) || page[0]?.number !== size) throw new Error("wrong page");
      },
      update: (col) => async (n) => {
        const id = checkout((n * 7919) % size)._id;
        const at = new Date().toISOString();
        if (!(await col.findOneAndUpdate({ _id: id, status: "open" }, { $set: { status: "open", updatedAt: at } }))) throw new Error(`no match ${id}`);
      },
    };
    for (const [opName, make] of Object.entries(ops)) {
      for (const inFlight of IN_FLIGHT) {
        const cells: Cell[] = [];
        for (const o of opened) cells.push(await drive(inFlight, make(o.col)));
        const row = cells.map((c) => `${c.opsPerSec.toFixed(1)}${c.errors ? ` (${c.errors} err)` : ""}`.padStart(18) + c.p99.toFixed(1).padStart(9));
        console.log(`${opName.padEnd(8)}${String(inFlight).padStart(10)}${row.join("")}`);
      }
    }
    for (const o of opened) {
      console.log(`${o.name}: FerretDB RSS after the runs ${ferretMemory(o.url)}; pushdown ${await explainPushdown(o.url, dbName)}`);
      if (process.env["BENCH_KEEP"] !== "1") await o.store.drop();
      await o.store.close();
    }
  }
}

await main();
