import { type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { createMerchantOp, type MerchantPrincipal } from "@payrail/contracts";
import { createAmqpTransport, type Transport } from "@payrail/messaging";
import { amqpTestUrl, testQueuePrefix } from "@payrail/messaging/testing";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl, uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { until } from "../../../test/support/until.ts";
import { chargesOf, countBy, firstAnswers, inBatches, isFerretDb, pay, RETRYABLE, startPaymentsProcess, type Answer } from "./support/payments-replicas.ts";

/*
 * The open issue's item: one killed payments instance of two stalled all 70 in-flight calls
 * ~10 s on the survivor, because the dead process still held a FerretDB write lock (then a 10 s
 * lease per collection) that every transfer needs. Here two payments processes serve RabbitMQ +
 * FerretDB, 50 Get Processor Token calls are in flight and 20 more come right after, and one
 * process is killed (SIGKILL) while it holds the lock on the transaction-id counter, the one
 * document every transfer's id is reserved from: the worst moment to die. The survivor must
 * answer every call (bench/recovery.bench.ts measures how soon), and no checkout may be charged
 * twice.
 *
 * The calls the dead process was running come back to the survivor (RabbitMQ redelivers what
 * was not acked), which runs each at once (Get Processor Token keeps no reply-ledger claim).
 * While the dead call's transfer lease has not lapsed, the survivor answers 409
 * `transfer_in_progress` with Retry-After, reading the lease without writing: it cannot tell a
 * dead holder from a slow one, and must not start a second transfer. A merchant retries that
 * as it would a 503, so this test does, and requires each checkout to be paid, once; how soon
 * after the kill is bench/recovery.bench.ts's to measure.
 */

// A process of its own needs the broker and database it can reach too: RabbitMQ + MongoDB only.
const broker = await amqpTestUrl();
const mongo = await mongoTestUrl();
// The write lock, and so a dead holder of it, exists on FerretDB only: MongoDB's writes are atomic.
const onFerretDb = mongo.url !== undefined && (await isFerretDb(mongo.url));
const skipReason = broker.skipReason ?? mongo.skipReason ?? (onFerretDb ? undefined : "the write lock this suite kills a holder of exists on FerretDB only");

const CALLS = 70;
/** Of which these arrive just after the kill: only the survivor can serve them. */
const LATE_CALLS = 20;
/** TRANSFER_LEASE_MS of both processes; the write lock's lease is 3 s too. */
const LEASE_MS = 3_000;
/** Between two of the calls sent before the kill. */
const EARLY_SPACING_MS = 20;
/** The write lock taken for each reservation of transaction ids: once a transfer when calls come apart. */
const COUNTER_LOCK = "counters/transaction_id";

describe.skipIf(!!skipReason)("one of two payments processes killed holding the lock every transfer needs (RabbitMQ + FerretDB)", () => {
  const suffix = randomBytes(4).toString("hex");
  const queuePrefix = testQueuePrefix();
  const dbName = `payrail_test_${suffix}`;
  const secretsKey = randomBytes(32).toString("base64");
  const logger = silentLogger();
  const children: ChildProcess[] = [];
  const opened: Transport[] = [];
  let store: Store;
  let client: Transport;
  let merchant: MerchantPrincipal;
  let checkoutIds: string[] = [];

  const transport = async () => {
    const t = await createAmqpTransport({ url: broker.url!, logger, queuePrefix, defaultTimeoutMs: 10_000 });
    opened.push(t);
    return t;
  };

  beforeAll(async () => {
    store = withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
    // Identity and checkout, which payments asks about every checkout, run here: only payments is killed.
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    await startServices(["identity", "checkout"], { config, logger, transport: await transport(), store });
    await Promise.all([startPayments("a"), startPayments("b")]);
    client = await transport();
    const created = await client.call(createMerchantOp, { name: "Acme" }, { requestId: "r", principal: { kind: "admin" } });
    merchant = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
    checkoutIds = await inBatches(CALLS, 10, async () => (await linkedCheckoutOverRpc(client, merchant)).id);
  }, 300_000);

  afterAll(async () => {
    // SIGKILL also ends a process the test left stopped (SIGSTOP).
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const t of opened.reverse()) await t.close().catch(() => undefined);
    await store?.drop().catch(() => undefined);
    await store?.close();
    await broker.stop();
    await mongo.stop();
  });

  const startPayments = (name: string) =>
    startPaymentsProcess(name, { brokerUrl: broker.url!, mongoUrl: mongo.url!, queuePrefix, dbName, secretsKey, transferLeaseMs: LEASE_MS }, children);

  /**
   * Samples the victim stopped: stops it (SIGSTOP), then looks for the transaction-id counter's
   * lock. With the survivor stopped too, a lock there can only be the victim's, or one it released
   * just before it stopped whose delete is still on its way; the same token 300 ms later rules
   * that out, and the victim is killed (SIGKILL) holding it. Otherwise it runs on for a few ms and
   * is sampled again. Looking only while it is stopped means a sighting cannot go stale before
   * the stop (as one did when the lock was polled first and the process stopped after), and the
   * short runs between samples mean many samples per transfer, however fast the machine.
   */
  async function killWhileHoldingCounterLock(victim: ChildProcess, inFlight: () => boolean): Promise<{ killAt: number; stops: number; token: string }> {
    const locks = uncheckedStore(store).collection<{ _id: string; token: string }>("store_locks");
    // Long enough for a loaded machine to reach the first transfers: this only bounds the set-up.
    const deadline = Date.now() + 60_000;
    let stops = 0;
    while (Date.now() < deadline && inFlight()) {
      victim.kill("SIGSTOP");
      stops++;
      const seen = await locks.findOne({ _id: COUNTER_LOCK });
      if (seen) {
        await sleep(300);
        const again = await locks.findOne({ _id: COUNTER_LOCK });
        if (again?.token === seen.token) {
          const exited = once(victim, "exit");
          victim.kill("SIGKILL");
          const killAt = Date.now();
          await exited;
          return { killAt, stops, token: seen.token };
        }
      }
      victim.kill("SIGCONT");
      await sleep(Math.random() * 3);
    }
    throw new Error(`the process held the counter's lock at none of its ${stops} stops (early calls still in flight: ${inFlight()})`);
  }

  it("answers every call on the survivor and charges each checkout once", async () => {
    const [victim, survivor] = children;
    const answers: Answer[] = [];
    const started = Date.now();
    const early = checkoutIds.slice(0, CALLS - LATE_CALLS);
    const late = checkoutIds.slice(CALLS - LATE_CALLS);
    // The survivor is stopped until the kill, its share of the calls waiting in its prefetch: the
    // counter's lock, which both processes take, can then only be the victim's, and the calls are
    // still in flight when it is caught holding it (on a fast machine both processes otherwise
    // finished the early calls before a sighting fell on the victim).
    survivor!.kill("SIGSTOP");
    let earlyDone = false;
    // Spread over a second, not sent at once: calls that reach the transaction id together share
    // one reservation of the counter (SequenceBlocks), and the lock is then held only once or twice.
    const earlyFlows = Promise.all(early.map((id, i) => sleep(i * EARLY_SPACING_MS).then(() => pay(client, merchant, id, answers)))).finally(() => (earlyDone = true));
    // Mid-flight: as soon as the first transfers draw their ids, while most calls still run.
    const { killAt, stops, token } = await killWhileHoldingCounterLock(victim!, () => !earlyDone).finally(() => survivor!.kill("SIGCONT"));
    const lateFlows = Promise.all(late.map((id) => pay(client, merchant, id, answers)));
    // How long the dead process's lock outlived it: until a survivor's write took it over.
    const locks = uncheckedStore(store).collection<{ _id: string; token: string }>("store_locks");
    await until("the dead process's lock to be taken over", async () => (await locks.findOne({ _id: COUNTER_LOCK }))?.token !== token, 60_000);
    const deadLockHeldMs = Date.now() - killAt;
    const pendingAtKill = early.length - new Set(answers.filter((a) => a.answeredAt <= killAt).map((a) => a.checkoutId)).size;
    await Promise.all([earlyFlows, lateFlows]);

    const waits = answers.filter((a) => a.answeredAt > killAt).map((a) => a.answeredAt - Math.max(a.sentAt, killAt));
    // A checkout's calls run one after another, so its first answer is its first call's.
    const { firstSent, firstOk } = firstAnswers(answers);
    const outcomes = countBy(answers.map((a) => a.outcome));
    const lateWaits = late.map((id) => (firstOk.get(id)?.answeredAt ?? Infinity) - firstSent.get(id)!);
    const summary = {
      pendingAtKill,
      stops,
      deadLockHeldMs,
      calls: answers.length,
      outcomes,
      longestWaitAfterKillMs: Math.max(0, ...waits),
      lateCallsMs: [Math.min(...lateWaits), Math.max(...lateWaits)],
      longestCallMs: Math.max(...answers.map((a) => a.answeredAt - a.sentAt)),
      allDoneAfterKillMs: Math.max(...[...firstOk.values()].map((a) => a.answeredAt)) - killAt,
      flowMs: Date.now() - started,
    };
    console.info(`kill-one-of-two: ${JSON.stringify(summary)}`);

    // What is tested happened: calls were in flight, the dead process's lock outlived it long
    // enough to matter (a live holder releases it in ms), and the calls sent after the kill, which
    // only the survivor could serve, waited for it (less the polling's slack).
    expect(pendingAtKill).toBeGreaterThanOrEqual(5);
    expect(deadLockHeldMs).toBeGreaterThan(LEASE_MS / 2);
    expect(Math.max(...lateWaits)).toBeGreaterThan(deadLockHeldMs - 250);
    // (a) Every call got an answer: the transfer's, or a refusal a retry cures; never a timeout or a 500.
    expect(Object.keys(outcomes).filter((o) => o !== "ok" && !RETRYABLE.has(o))).toEqual([]);
    expect(firstOk.size).toBe(CALLS);
    // (b) How long the dead holder stalled the survivor (about its lease, not 10 s) is
    // bench/recovery.bench.ts's to measure, from the summary above.

    // (c) Exactly one transfer at the provider and one transaction record per checkout, the ones every answer names.
    const charges = await chargesOf(store, checkoutIds, answers);
    expect(charges.transfers).toBe(CALLS);
    expect(charges.transactions).toBe(CALLS);
    for (const { transfers: [transferId, ...others], recorded, named } of charges.perCheckout) {
      expect(others).toEqual([]);
      expect(recorded).toEqual([transferId]);
      expect(named).toEqual([transferId]);
    }
    // Bounded by the set-up's waits and the calls' timeout (CALL_TIMEOUT_MS), not by how soon.
  }, 400_000);
});
