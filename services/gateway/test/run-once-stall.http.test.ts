import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createWebhookEndpointOp, generateApiKeyOp, requestRefundOp, type Operation } from "@payrail/contracts";
import { LEASE_MS, type ReplyLedger, type Transport } from "@payrail/messaging";
import { loadConfig, SecretBox, silentLogger } from "@payrail/runtime";
import { createReplyLedger, REPLY_LEDGER_COLLECTION, type Collection, type Filter, type Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { infraVariants, type InfraVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { payment } from "./support/refund-flow.ts";
import { until } from "../../../test/support/until.ts";

/*
 * Issue 21, item 8: a call whose runner stalls past its lease (an event loop blocked for
 * seconds: its lease renewals never reach the store) is taken over by a redelivery of the same
 * call, and both runs carry on. The handlers that are not idempotent by themselves (new API key,
 * webhook endpoint, refund request) key what they create on the run id, so the effect is made
 * once and both runs answer it.
 */
const variants = await infraVariants();
const STALLED = new Set(["api_keys", "webhook_endpoints", "refunds"]);

/** The store, except that the first insert into each of STALLED waits past the lease. */
function stallingStore(inner: Store, stalls: { armed: boolean; stalled: number }): Store {
  const stalledOnce = new Set<string>();
  return {
    ...inner,
    collection<T extends { _id: string }>(name: string): Collection<T> {
      const col = inner.collection<T>(name);
      if (!STALLED.has(name)) return col;
      return Object.assign(Object.create(col) as Collection<T>, {
        async insertOne(doc: T) {
          if (stalls.armed && !stalledOnce.has(name)) {
            stalledOnce.add(name);
            stalls.stalled++;
            await sleep(LEASE_MS + 1_500);
          }
          return col.insertOne(doc);
        },
      });
    },
    nextSequence: (n) => inner.nextSequence(n),
    reserveSequence: (n, count) => inner.reserveSequence(n, count),
    ping: () => inner.ping(),
    drop: () => inner.drop(),
    close: () => inner.close(),
  };
}

/** The store's ledger, whose lease renewals never land (what a stalled runner's are). */
function ledgerWithoutRenewals(ledger: ReplyLedger): ReplyLedger {
  return { ...ledger, claim: ledger.claim.bind(ledger), finish: ledger.finish.bind(ledger), release: ledger.release.bind(ledger), renew: async () => true };
}

describe.each(variants)("at most once across a stalled runner, over $name", (variant) => {
  let stack: Stack;
  let webhooks: { stop(): Promise<void> }[] = [];
  let store: Store;
  const transports: Transport[] = [];
  const stalls = { armed: false, stalled: 0 };
  const wrapped: InfraVariant = {
    ...variant,
    async transport() {
      const t = await variant.transport();
      transports.push(t);
      return t;
    },
    async store() {
      return stallingStore(await variant.store(), stalls);
    },
  };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(wrapped);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    webhooks = await startServices(["webhooks"], { config, logger: silentLogger(), transport: await wrapped.transport(), store: await wrapped.store() });
    store = await variant.store();
    const ledger = ledgerWithoutRenewals(await createReplyLedger(store, { sealer: new SecretBox(randomBytes(32)) }));
    // Every serving transport (the stack's services and webhooks) gets it; the gateway's serves nothing.
    for (const t of transports) t.useReplyLedger(ledger);
  });
  afterAll(async () => {
    for (const service of webhooks) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  /** Sends one call, then, once its lease has run out, the same call again (a redelivery). */
  const twice = async <O extends Operation>(op: O, payload: unknown, principal: unknown) => {
    const callId = `call-${randomBytes(8).toString("hex")}`;
    const ctx = { requestId: `req_${randomBytes(4).toString("hex")}`, principal } as never;
    const first = stack.transport.call(op, payload as never, ctx, { callId, timeoutMs: 20_000 });
    // The first run's claim, which its renewals never reach, has lapsed: a redelivery may take it over.
    const claims = uncheckedStore(store).collection<{ _id: string; callId: string; leaseUntil?: number }>(REPLY_LEDGER_COLLECTION);
    await until(`call ${callId}'s claim to lapse`, async () => {
      const claim = (await claims.find({ callId }))[0];
      return claim?.leaseUntil !== undefined && claim.leaseUntil < Date.now();
    });
    const second = stack.transport.call(op, payload as never, ctx, { callId, timeoutMs: 20_000 });
    return Promise.all([first, second]);
  };

  it.skipIf(!!variant.skipReason)("issues one API key, registers one webhook endpoint and records one refund", async () => {
    const merchant = await stack.merchant("Stalled");
    const principal = { kind: "merchant" as const, merchantId: merchant.id, keyPrefix: merchant.apiKey.slice(0, 16), livemode: false };
    const paid = await payment(stack, merchant.apiKey, "completed");
    const user = { kind: "user" as const, userId: paid.consumer.userId, phone: paid.consumer.phone };
    stalls.armed = true;
    const [keys, endpoints, refunds] = await Promise.all([
      twice(generateApiKeyOp, { merchant_id: merchant.id }, { kind: "admin" }),
      twice(createWebhookEndpointOp, { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] }, principal),
      twice(requestRefundOp, { transaction_uuid: paid.uuid }, user),
    ]);
    expect(stalls.stalled).toBe(3);

    // Both runs answered the one thing made.
    expect(keys[1]).toEqual(keys[0]);
    expect(endpoints[1]).toEqual(endpoints[0]);
    expect(refunds[1]).toEqual(refunds[0]);
    const count = (name: string, filter: Filter) => store.collection(name).countDocuments(filter);
    expect(await count("api_keys", { merchantId: merchant.id })).toBe(2); // the first key, and this one
    expect(await count("webhook_endpoints", { merchantId: merchant.id })).toBe(1);
    expect(await count("refunds", { userId: user.userId })).toBe(1);
    // The key that was answered works.
    const listed = await stack.app.inject({ url: "/api/merchants/checkout?limit=1", headers: { "api-key": (keys[0] as { api_key: string }).api_key } });
    expect(listed.statusCode).toBe(200);
  }, 30_000);
});
