import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { AppError, getProcessorTokenOp, type MerchantPrincipal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { uncheckedStore } from "@payrail/store/testing";
import type { Store } from "@payrail/store";
import { MongoClient } from "mongodb";
import { until } from "../../../../test/support/until.ts";
import { as } from "./payments-harness.ts";

/*
 * What the kill tests share: payments instances in processes of their own (payments-process.ts),
 * a merchant's Get Processor Token calls with retries, and the count of transfers and records.
 */

/** The refusals a merchant retries (as it would a 503); anything else, a timeout above all, fails a kill test. */
export const RETRYABLE = new Set(["transfer_in_progress", "service_unavailable"]);
/**
 * Far beyond the tests' bounds, so a stalled call shows up as a measured wait, not as a timeout:
 * past the set-up's wait for full flow (up to 120 s on a loaded machine), a lease and a takeover,
 * as a call sent when the flows began may still be with the process that is killed. At 30 s, three
 * calls sent 21 s before the kill timed out 9 s after it, while the survivor took their leases over.
 */
export const CALL_TIMEOUT_MS = 180_000;

/** Where the payments processes meet: broker, database and names of this test's own. */
export interface ReplicaEnv {
  brokerUrl: string;
  mongoUrl: string;
  queuePrefix: string;
  dbName: string;
  /** base64 of 32 bytes, the same for every instance: one seals the access tokens another opens. */
  secretsKey: string;
  /** Unset: the configuration's default, as in production. */
  transferLeaseMs?: number;
}

/** How long a payments process may take to start: a second or two alone, far longer beside other suites on a loaded 2-core machine. */
const START_TIMEOUT_MS = 120_000;

/** Starts one payments process and waits until it serves; the caller kills it (or its pipe closing ends it). */
export async function startPaymentsProcess(name: string, env: ReplicaEnv, children: ChildProcess[]): Promise<ChildProcess> {
  const script = fileURLToPath(new URL("./payments-process.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: {
      ...process.env,
      AMQP_URL: env.brokerUrl,
      MONGODB_URL: env.mongoUrl,
      TEST_QUEUE_PREFIX: env.queuePrefix,
      TEST_DB: env.dbName,
      TEST_SECRETS_KEY: env.secretsKey,
      TRANSFER_LEASE_MS: env.transferLeaseMs === undefined ? "" : String(env.transferLeaseMs),
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  await until(
    `payments process ${name} to serve`,
    () => {
      if (child.exitCode !== null) throw new Error(`payments process ${name} exited with ${child.exitCode}`);
      return stdout.includes("ready");
    },
    START_TIMEOUT_MS,
  );
  return child;
}

export interface Answer {
  checkoutId: string;
  sentAt: number;
  answeredAt: number;
  /** "ok", or the error code. */
  outcome: string;
  transactionId?: string;
}

/** One Get Processor Token call, as the gateway makes it (at most once per call id), timed. */
export async function callOnce(client: Transport, merchant: MerchantPrincipal, checkoutId: string): Promise<Answer> {
  const sentAt = Date.now();
  try {
    const out = await client.call(getProcessorTokenOp, { checkout_id: checkoutId }, as(merchant), { once: true, timeoutMs: CALL_TIMEOUT_MS });
    return { checkoutId, sentAt, answeredAt: Date.now(), outcome: "ok", transactionId: out.transaction_id };
  } catch (err) {
    return { checkoutId, sentAt, answeredAt: Date.now(), outcome: err instanceof AppError ? err.code : String(err) };
  }
}

/**
 * How long a merchant goes on retrying a retryable refusal before the test calls the checkout
 * unanswered: far past any lease, so a loaded machine delays an answer rather than losing it; how
 * soon the answers come is bench/recovery.bench.ts's to measure.
 */
export const RETRY_FOR_MS = 120_000;

/** A merchant's calls for one checkout: again `retryMs` after a retryable refusal, until it succeeds. */
export async function pay(client: Transport, merchant: MerchantPrincipal, checkoutId: string, answers: Answer[], retryMs = 250): Promise<void> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    const answer = await callOnce(client, merchant, checkoutId);
    answers.push(answer);
    if (!RETRYABLE.has(answer.outcome) || Date.now() > deadline) return;
    await sleep(retryMs);
  }
}

/** Each checkout's first call sent and first success, from a list of answers. */
export function firstAnswers(answers: Answer[]): { firstSent: Map<string, number>; firstOk: Map<string, Answer> } {
  const firstSent = new Map<string, number>();
  const firstOk = new Map<string, Answer>();
  for (const a of answers) {
    if (!firstSent.has(a.checkoutId)) firstSent.set(a.checkoutId, a.sentAt);
    if (a.outcome === "ok" && !firstOk.has(a.checkoutId)) firstOk.set(a.checkoutId, a);
  }
  return { firstSent, firstOk };
}

/**
 * For each checkout: the provider transfers made for it and the transaction records' transfer
 * ids, and the transaction ids the successful answers named.
 */
export async function chargesOf(store: Store, checkoutIds: string[], answers: Answer[]) {
  const transfers = await uncheckedStore(store).collection<{ _id: string; metadata: { key: string; value: string }[] }>("sandbox_transfers").find({});
  const transactions = await uncheckedStore(store).collection<{ _id: string; checkoutRef: string; processor_transaction_id: string }>("transactions").find({});
  const transferOf = new Map<string, string[]>();
  for (const t of transfers) {
    const checkoutId = t.metadata.find((m) => m.key === "checkout_id")?.value ?? "?";
    transferOf.set(checkoutId, [...(transferOf.get(checkoutId) ?? []), t._id]);
  }
  return {
    transfers: transfers.length,
    transactions: transactions.length,
    perCheckout: checkoutIds.map((id) => ({
      transfers: transferOf.get(id) ?? [],
      recorded: transactions.filter((t) => t.checkoutRef === id).map((t) => t.processor_transaction_id),
      named: [...new Set(answers.filter((a) => a.checkoutId === id && a.outcome === "ok").map((a) => a.transactionId))],
    })),
  };
}

/** `count` results of `make`, at most `width` at a time. */
export async function inBatches<T>(count: number, width: number, make: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, make))));
  return out;
}

export function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

export async function isFerretDb(url: string): Promise<boolean> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    return (await client.db("admin").command({ buildInfo: 1 })).ferretdbVersion !== undefined;
  } finally {
    await client.close();
  }
}
