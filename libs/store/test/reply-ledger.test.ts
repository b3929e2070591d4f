import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { SecretBox, silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, createReplyLedger, withIndexCheck, type Store } from "../src/index.ts";
import { createMongoStore } from "../src/mongo/index.ts";
import { mongoTestUrl, uniqueTestDbName } from "../src/testing/index.ts";

const logger = silentLogger();
const mongo = await mongoTestUrl();
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) {
    await store.drop();
    await store.close();
  }
  await mongo.stop();
});

const variants: [string, (() => Store) | null][] = [
  ["embedded store", () => createEmbeddedStore({ logger })],
  ["MongoDB-wire store", mongo.url ? () => createMongoStore({ url: mongo.url!, dbName: uniqueTestDbName(), logger }) : null],
];

type Reply = { ok: boolean; data: unknown };
const HOUR = 3_600_000;

describe.each(variants)("reply ledger on the %s", (_name, open) => {
  // The ledger's clock: leases and records expire when a test moves it, not after a sleep.
  const clock = { now: Date.now() };
  const ledger = async () => {
    if (!open) throw new Error("unreachable");
    const store = withIndexCheck(open(), { mode: "enforce" });
    opened.push(store);
    return createReplyLedger<Reply>(store, { sealer: new SecretBox(randomBytes(32)), now: () => clock.now });
  };
  const runIf = open ? it : it.skip;
  const later = (ms: number) => clock.now + ms;

  runIf("lets one of 20 racing claims run, shows it running to the others, then its reply", async () => {
    const l = await ledger();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => l.claim("k1", "fp", `call-${i}`, later(5_000), later(HOUR))));
    const winners = claims.flatMap((c, i) => (c === null ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const c of claims) if (c) expect(c).toEqual({ state: "running", callId: `call-${winners[0]}`, fingerprint: "fp" });
    await l.finish("k1", `call-${winners[0]}`, "fp", { ok: true, data: { id: "chk_1" } }, later(HOUR));
    expect(await l.claim("k1", "fp", "call-x", later(5_000), later(HOUR))).toEqual({
      state: "done",
      callId: `call-${winners[0]}`,
      fingerprint: "fp",
      reply: { ok: true, data: { id: "chk_1" } },
    });
  });

  runIf("takes over a running claim whose lease ran out (its runner died), not a renewed one", async () => {
    const l = await ledger();
    expect(await l.claim("k2", "fp", "dead", later(150), later(HOUR))).toBeNull();
    expect(await l.claim("k3", "fp", "alive", later(150), later(HOUR))).toBeNull();
    await l.renew("k3", "alive", later(10_000));
    clock.now += 200;
    // Taken over as the dead runner's run, so effects keyed on the run id are found, not made again.
    expect(await l.claim("k2", "fp", "next", later(5_000), later(HOUR))).toEqual({ state: "resumed", runId: "dead" });
    expect(await l.claim("k2", "fp", "third", later(5_000), later(HOUR))).toMatchObject({ state: "running", callId: "next" });
    // Both ran the same request: the first reply stored stands, a later one changes nothing.
    await l.finish("k2", "next", "fp", { ok: true, data: "first" }, later(HOUR));
    await l.finish("k2", "dead", "fp", { ok: true, data: "late" }, later(HOUR));
    expect(await l.claim("k2", "fp", "third", later(5_000), later(HOUR))).toMatchObject({ state: "done", callId: "next", reply: { data: "first" } });
    expect(await l.claim("k3", "fp", "next", later(5_000), later(HOUR))).toMatchObject({ state: "running", callId: "alive" });
    // Another request under a key whose runner died is still refused by its fingerprint, not run.
    expect(await l.claim("k4", "fp", "dead", later(100), later(HOUR))).toBeNull();
    clock.now += 150;
    expect(await l.claim("k4", "other", "next", later(5_000), later(HOUR))).toMatchObject({ state: "running", fingerprint: "fp" });
  });

  runIf("forgets a released claim and an expired record", async () => {
    const l = await ledger();
    expect(await l.claim("k5", "fp", "a", later(5_000), later(HOUR))).toBeNull();
    await l.release("k5", "a");
    expect(await l.claim("k5", "fp", "b", later(5_000), later(HOUR))).toBeNull();
    expect(await l.claim("k6", "fp", "a", later(5_000), later(100))).toBeNull();
    await l.finish("k6", "a", "fp", { ok: true, data: 1 }, later(100));
    clock.now += 150;
    expect(await l.claim("k6", "other", "b", later(5_000), later(HOUR))).toBeNull();
    await l.finish("k6", "b", "other", { ok: true, data: 2 }, later(HOUR));
    expect(await l.claim("k6", "other", "c", later(5_000), later(HOUR))).toMatchObject({ state: "done", reply: { ok: true, data: 2 } });
  });
});
