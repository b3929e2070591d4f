/**
 * How much room each collection and each of its indexes takes in a store, for the capacity
 * guide's table (docs/guide/capacity.md):
 *
 *   npm run bench:sizes -- --data-dir <embedded data dir>     # SQLite's dbstat, per table and index
 *   MONGODB_URL=… MONGODB_DB=… npm run bench:sizes            # the server's collStats
 *
 * Seed first: `npm run bench:http -- --sizes 1e6 --modes embedded --keep-data` leaves an
 * embedded folder of 10^6 checkouts (their webhook events with them) and prints its path.
 * Prints a markdown table of the collections holding more than `--min-rows` documents.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { MongoClient } from "mongodb";

interface Sized {
  collection: string;
  documents: number;
  dataBytes: number;
  indexes: { name: string; bytes: number }[];
}

const { values } = parseArgs({ options: { "data-dir": { type: "string" }, "min-rows": { type: "string", default: "100" } } });
const minRows = Number(values["min-rows"]);

/** The embedded store: table `c_<collection>` (`_id`, `doc` JSON), indexes `c_<collection>$<name>` and SQLite's own on `_id`. */
function embeddedSizes(dataDir: string): Sized[] {
  const db = new Database(join(dataDir, "payrail.sqlite"), { readonly: true });
  try {
    const pages = new Map((db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name").all() as { name: string; bytes: number }[]).map((r) => [r.name, r.bytes]));
    const objects = db.prepare("SELECT name, type, tbl_name AS tbl FROM sqlite_master WHERE tbl_name LIKE 'c\\_%' ESCAPE '\\'").all() as { name: string; type: string; tbl: string }[];
    return objects
      .filter((o) => o.type === "table")
      .map((t) => ({
        collection: t.name.slice(2),
        documents: (db.prepare(`SELECT COUNT(*) AS n FROM "${t.name}"`).get() as { n: number }).n,
        dataBytes: pages.get(t.name) ?? 0,
        indexes: objects
          .filter((o) => o.type === "index" && o.tbl === t.name)
          .map((o) => ({ name: o.name.startsWith("sqlite_autoindex") ? "_id" : o.name.slice(t.name.length + 1), bytes: pages.get(o.name) ?? 0 })),
      }));
  } finally {
    db.close();
  }
}

async function mongoSizes(url: string, dbName: string): Promise<Sized[]> {
  const client = await MongoClient.connect(url);
  try {
    const db = client.db(dbName);
    const out: Sized[] = [];
    for (const { name } of await db.listCollections().toArray()) {
      const stats = (await db.command({ collStats: name })) as { count: number; size: number; indexSizes?: Record<string, number> };
      out.push({ collection: name, documents: stats.count, dataBytes: stats.size, indexes: Object.entries(stats.indexSizes ?? {}).map(([n, bytes]) => ({ name: n, bytes })) });
    }
    return out;
  } finally {
    await client.close();
  }
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const sized = values["data-dir"] ? embeddedSizes(values["data-dir"]) : await mongoSizes(process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017", process.env.MONGODB_DB ?? "payrail");
console.log("| collection | documents | data MiB | index | index MiB | bytes per document |");
console.log("| --- | ---: | ---: | --- | ---: | ---: |");
for (const c of sized.filter((s) => s.documents > minRows).sort((a, b) => b.dataBytes - a.dataBytes)) {
  console.log(`| ${c.collection} | ${c.documents} | ${mib(c.dataBytes)} | (data) | | ${(c.dataBytes / c.documents).toFixed(0)} |`);
  for (const i of c.indexes.sort((a, b) => b.bytes - a.bytes)) console.log(`| | | | ${i.name} | ${mib(i.bytes)} | ${(i.bytes / c.documents).toFixed(0)} |`);
}
