/**
 * Child process for the SIGKILL test: writes to the embedded store in `argv[2]` as fast as it
 * can (inserts and conditional updates, several in flight) and prints the `_id` of each write
 * once the store has acknowledged it. The parent kills it mid-burst and checks every printed id.
 */
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore } from "../../src/index.ts";

const store = createEmbeddedStore({ dir: process.argv[2], logger: silentLogger() });
const col = store.collection<{ _id: string; n: number; touched?: boolean }>("burst");
await col.createIndex({ keys: { n: 1 }, unique: true });

let n = 0;
async function writer(): Promise<never> {
  for (;;) {
    const id = `doc-${++n}`;
    await col.insertOne({ _id: id, n });
    await col.findOneAndUpdate({ _id: id }, { $set: { touched: true } });
    process.stdout.write(`${id}\n`);
  }
}
await Promise.all([writer(), writer(), writer(), writer()]);
