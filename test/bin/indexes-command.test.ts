import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { mongoTestUrl, uniqueTestDbName } from "@payrail/store/testing";
import { freePort } from "../support/free-port.ts";
import { payrail, startPayrail } from "../support/payrail-process.ts";

/**
 * `payrail indexes` (the Helm chart's pre-upgrade Job) against what the services create at start:
 * on one fresh MongoDB-wire database the command alone, on another `payrail start`; every
 * collection the command indexed ends with the same indexes as the started services gave it,
 * and the services index nothing else but the sandbox providers' own collections (never in a
 * live deployment, created by those adapters as they open).
 */
const mongo = await mongoTestUrl();
if (mongo.skipReason && process.env["REQUIRE_INFRA"] === "1") throw new Error(`REQUIRE_INFRA=1 but ${mongo.skipReason}`);
const SECRETS_KEY = randomBytes(32).toString("base64");
/** Collections only the sandbox providers (and the in-process bus's event queue) open: created by those as they start. */
const OPENED_BY_ADAPTERS = /^(sandbox_|event_queue$|event_bindings$)/;

describe.skipIf(!!mongo.skipReason)("payrail indexes", () => {
  const client = new MongoClient(mongo.url!);
  const byCommand = uniqueTestDbName("payrail_test_indexes_cmd");
  const byStart = uniqueTestDbName("payrail_test_indexes_start");
  afterAll(async () => {
    for (const db of [byCommand, byStart]) await client.db(db).dropDatabase().catch(() => undefined);
    await client.close();
    await mongo.stop();
  });

  /** Collection → its index names and keys, sorted. */
  const indexesOf = async (dbName: string) => {
    const db = client.db(dbName);
    const out = new Map<string, string[]>();
    for (const { name } of await db.listCollections().toArray()) {
      const list = await db.collection(name).listIndexes().toArray();
      out.set(name, list.map((i) => `${i.name} ${JSON.stringify(i.key)}${i.unique ? " unique" : ""}`).sort());
    }
    return out;
  };

  it("creates, and only creates, the indexes the services create at start; a second run finds them in place", async () => {
    const env = { MONGODB_URL: mongo.url!, MONGODB_DB: byCommand, SECRETS_KEY };
    const first = await payrail(env, "indexes");
    expect(first.code, first.stderr).toBe(0);
    for (const service of ["identity", "checkout", "payments", "refunds", "notices", "ledger", "webhooks"]) expect(first.stdout).toMatch(new RegExp(`^${service}: indexes in place`, "m"));
    const made = await indexesOf(byCommand);
    // It writes no document: every collection it made is empty.
    for (const name of made.keys()) expect(await client.db(byCommand).collection(name).countDocuments(), name).toBe(0);
    const again = await payrail(env, "indexes");
    expect(again.code, again.stderr).toBe(0);
    expect(await indexesOf(byCommand)).toEqual(made);

    const started = await startPayrail({ MONGODB_URL: mongo.url!, MONGODB_DB: byStart, SECRETS_KEY, DEMO_MERCHANT: "off", PORT: String(await freePort()), HOST: "127.0.0.1" });
    await started.stop();
    const atStart = await indexesOf(byStart);
    for (const [name, indexes] of made) expect(atStart.get(name), name).toEqual(indexes);
    const missed = [...atStart].filter(([name, indexes]) => !made.has(name) && indexes.length > 1 && !OPENED_BY_ADAPTERS.test(name));
    expect(missed.map(([name, indexes]) => `${name}: ${indexes.join(", ")}`)).toEqual([]);
  }, 180_000);
});
