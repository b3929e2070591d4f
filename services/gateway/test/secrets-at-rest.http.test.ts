import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createInProcessBus, createInProcessTransport, type Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl } from "@payrail/store/testing";
import type { LightMyRequestResponse } from "fastify";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import type { InfraVariant } from "../../../test/support/infra.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { until } from "../../../test/support/until.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";

/*
 * Issue 21, item 1: the walk-through's flow, then every byte the store keeps is searched for the
 * secrets the flow was handed (API keys, the consumer's auth token, link tokens, webhook signing
 * secrets). The reply ledger stores the replies that carried them, so it must keep them sealed:
 * the requests that receive a key or a secret carry an Idempotency-Key, so their replies are
 * remembered on every transport (the in-process bus remembers no call without one: it never
 * delivers a call twice).
 */
const logger = silentLogger();
const mongo = await mongoTestUrl();

/** An in-process bus over a store whose bytes the test can read afterwards. */
interface InspectableVariant extends InfraVariant {
  /** Everything the store holds, as text: every document, and for SQLite the raw file and its WAL. */
  contents(): Promise<string>;
}

function embeddedOnDisk(): InspectableVariant {
  const dir = mkdtempSync(join(tmpdir(), "payrail-secrets-"));
  const bus = createInProcessBus();
  const opened: Transport[] = [];
  let store: Store | undefined;
  return {
    name: "embedded store (SQLite file)",
    async transport() {
      const t = await createInProcessTransport({ logger, bus, defaultTimeoutMs: 5_000 });
      opened.push(t);
      return t;
    },
    async store() {
      store ??= withIndexCheck(createEmbeddedStore({ logger, dir }), { mode: "enforce" });
      return store;
    },
    async contents() {
      // The file itself (every page, free ones included) and the write-ahead log beside it.
      return readdirSync(dir)
        .map((f) => readFileSync(join(dir, f)).toString("latin1"))
        .join("\n");
    },
    async cleanup() {
      for (const t of opened.reverse()) await t.close();
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function mongoWire(): InspectableVariant {
  const dbName = `payrail_test_secrets_${randomBytes(4).toString("hex")}`;
  const bus = createInProcessBus();
  const opened: Transport[] = [];
  let store: Store | undefined;
  return {
    name: "MongoDB-wire store",
    ...(mongo.skipReason ? { skipReason: mongo.skipReason } : {}),
    async transport() {
      const t = await createInProcessTransport({ logger, bus, defaultTimeoutMs: 5_000 });
      opened.push(t);
      return t;
    },
    async store() {
      store ??= withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
      return store;
    },
    async contents() {
      const client = await MongoClient.connect(mongo.url!);
      try {
        const db = client.db(dbName);
        const parts: string[] = [];
        for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
          parts.push(JSON.stringify(await db.collection(name).find({}).toArray()));
        }
        return parts.join("\n");
      } finally {
        await client.close();
      }
    },
    async cleanup() {
      for (const t of opened.reverse()) await t.close();
      if (store) {
        await store.drop();
        await store.close();
      }
    },
  };
}

afterAll(() => mongo.stop());

describe.each([embeddedOnDisk(), mongoWire()])("no secret kept in clear, on the $name", (variant) => {
  let stack: Stack;
  let webhooks: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    webhooks = await startServices(["webhooks"], { config, logger, transport: await variant.transport(), store: await variant.store() });
  });
  afterAll(async () => {
    for (const service of webhooks) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("walks the README flow, then finds none of the keys, tokens and secrets it was handed in any collection", async () => {
    const handed: Record<string, string> = {};
    const ok = async (what: string, reply: Promise<LightMyRequestResponse>) => {
      const r = await reply;
      if (r.statusCode !== 200) throw new Error(`${what}: ${r.statusCode} ${r.body}`);
      return r.json();
    };
    const admin = { "x-admin-token": ADMIN_TOKEN };
    const run = randomBytes(4).toString("hex");
    const keyed = (what: string) => ({ "idempotency-key": `secrets-${run}-${what}` });
    const created = await ok("create merchant", stack.app.inject({ method: "POST", url: "/api/admin/merchants", payload: { name: "Acme" }, headers: { ...admin, ...keyed("merchant") } }));
    handed["first api key"] = created.api_key;
    const second = await ok(
      "new key",
      stack.app.inject({ method: "POST", url: `/api/admin/merchants/${created.merchant.id}/generate_api_key`, headers: { ...admin, ...keyed("new-key") } }),
    );
    handed["second api key"] = second.api_key;
    const apiKey = second.api_key as string;

    // Checkout, code, link, transfer (settled), then a refund paid back.
    const paid = await payment(stack, apiKey, "completed");
    handed["auth token"] = paid.consumer.token;
    // A link token for an open checkout: the paid one refuses new tokens (409 checkout_closed)
    // as soon as its payment's event has reached the checkout service.
    const open = await ok("open checkout", stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: { "api-key": apiKey } }));
    const link = await ok("link token", stack.app.inject({ url: `/api/merchants/checkout/${open.id}/generate_link_token`, headers: { "api-key": apiKey } }));
    handed["link token"] = link.link_token;
    const refund = await requested(stack, paid);
    const refunds = refundClient(stack);
    await ok("approve", refunds.decide({ "api-key": apiKey }, refund.id, "Approved"));
    const processing = await ok("initiate", refunds.initiate({ "api-key": apiKey }, refund.id));
    await ok("settle the refund", refunds.simulate(apiKey, processing.refund.refund_transaction_id, "completed"));

    // A webhook endpoint, then a rotation: each answer shows a signing secret once.
    const endpoint = await ok(
      "create endpoint",
      stack.app.inject({
        method: "POST",
        url: "/api/merchants/webhook_endpoints",
        payload: { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] },
        headers: { "api-key": apiKey, ...keyed("endpoint") },
      }),
    );
    handed["webhook secret"] = endpoint.secret;
    const rotated = await ok(
      "rotate",
      stack.app.inject({ method: "POST", url: `/api/merchants/webhook_endpoints/${endpoint.id}/rotate_secret`, headers: { "api-key": apiKey, ...keyed("rotate") } }),
    );
    handed["rotated webhook secret"] = rotated.secret;

    for (const [what, value] of Object.entries(handed)) expect(value, what).toMatch(/^(sk_test_|whsec_)?[A-Za-z0-9._~+/=-]{20,}$/);
    // The replies that carried the keys and secrets were remembered (sealed), not skipped: the
    // finished record of each keyed request. A reply is recorded just behind the answer.
    const ledger = (await variant.store()).collection("rpc_replies");
    const merchantScope = `merchant:${created.merchant.id}`;
    const records = [`admin:${keyed("merchant")["idempotency-key"]}`, `admin:${keyed("new-key")["idempotency-key"]}`, `${merchantScope}:${keyed("endpoint")["idempotency-key"]}`, `${merchantScope}:${keyed("rotate")["idempotency-key"]}`].map(
      (scoped) => `key:${scoped}|done`,
    );
    const remembered = () => ledger.countDocuments({ _id: { $in: records } });
    await until("the four replies to be remembered", async () => (await remembered()) === records.length, 5_000, 150);

    const contents = await variant.contents();
    expect(contents.length).toBeGreaterThan(10_000);
    const found = Object.entries(handed).filter(([, value]) => contents.includes(value) || contents.includes(value.replace(/^whsec_/, "")));
    expect(found.map(([what]) => what)).toEqual([]);
  });
});
