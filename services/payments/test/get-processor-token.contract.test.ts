import {
  AppError,
  createMerchantOp,
  getProcessorTokenOp,
  type MerchantPrincipal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { SandboxBankDataAdapter } from "../src/adapters/sandbox/sandbox-bank-data.adapter.ts";
import { attestedMandateId } from "../src/domain/mandates/require-debit-mandate.ts";
import { start } from "../src/index.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { storeWithFaults, type StoreWrite } from "../../../test/support/store-with-faults.ts";
import { until } from "../../../test/support/until.ts";
import { as, codeOf } from "./support/payments-harness.ts";
import { storeWithStepFaults, type TransferStep } from "./support/transfer-step-faults.ts";

const variants = await infraVariants();
// The takeover tests move the service's clock past a lease (offsetMs) instead of waiting one out,
// so the lease can be long enough that 100 concurrent transfers on a loaded machine, their lease
// renewals queued behind FerretDB's serialised conditional writes, never lose theirs.
const LEASE_MS = 60_000;
const STEPS: TransferStep[] = ["funding_source", "transaction_record"];

/** The bank-data simulator, with a switch to make its next processor-token call fail like Plaid. */
class FlakyBankData extends SandboxBankDataAdapter {
  failNext = false;
  override async createProcessorToken(input: Parameters<SandboxBankDataAdapter["createProcessorToken"]>[0]) {
    if (this.failNext) {
      this.failNext = false;
      throw new AppError("provider_error", "the bank-data provider failed", { providerCode: "INTERNAL_SERVER_ERROR" });
    }
    return super.createProcessorToken(input);
  }
}

describe.each(variants)("get_processor_token over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let merchant: MerchantPrincipal;
  let bankData: FlakyBankData;
  let offsetMs = 0;
  /** What the next call does after a step: throw (a failure the process survives), hang (a crash) or go on 3 s later (a store or provider slowed down). */
  let fault: { step: TransferStep; mode: "throw" | "hang" | "slow" } | null = null;
  /** Every conditional write payments made to an attempt or a mandate, matched or not, and every attempt or mandate it inserted. */
  const attemptWrites: StoreWrite[] = [];
  const mandateWrites: StoreWrite[] = [];
  const noteAttemptWrite = async (write: StoreWrite) => {
    if (write.collection === "transfer_attempts") attemptWrites.push(write);
    if (write.collection === "mandates") mandateWrites.push(write);
  };
  /** The next write that would record the provider's answers (the funding source's) fails unwritten. */
  let loseNextFundingSourceWrite = false;
  const loseFundingSourceWrite = async (write: StoreWrite) => {
    if (!loseNextFundingSourceWrite || write.collection !== "transfer_attempts" || !("fundingSourceUrl" in (write.update.$set ?? {}))) return;
    loseNextFundingSourceWrite = false;
    throw new Error("injected failure before the funding source was recorded");
  };
  const attemptInserts: { _id: string; leaseId?: string | null }[] = [];
  const mandateInserts: { _id: string; checkoutId?: string }[] = [];
  const noteAttemptInsert = async (collection: string, doc: { _id: string }) => {
    if (collection === "transfer_attempts") attemptInserts.push(doc);
    if (collection === "mandates") mandateInserts.push(doc);
  };

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    const logger = silentLogger();
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), TRANSFER_LEASE_MS: String(LEASE_MS) });
    await startServices(["identity", "checkout"], { config, logger, transport: await variant.transport(), store });
    bankData = new FlakyBankData(store);
    await start({
      transport: await variant.transport(),
      store: storeWithStepFaults(storeWithFaults(store, { before: loseFundingSourceWrite, after: noteAttemptWrite, missed: noteAttemptWrite, inserting: noteAttemptInsert }), async (step) => {
        if (fault?.step !== step) return;
        const { mode } = fault;
        fault = null;
        if (mode === "throw") throw new Error(`injected failure after ${step}`);
        if (mode === "slow") return void (await sleep(3_000));
        await new Promise(() => {}); // the process "died" here: this call never finishes
      }),
      logger,
      secretsKey: randomBytes(32),
      providers: config,
      bankData,
      now: () => new Date(Date.now() + offsetMs),
    });
    client = await variant.transport();
    const created = await client.call(
      createMerchantOp,
      { name: "Acme", destination_funding_source: "https://api-sandbox.dwolla.com/funding-sources/merchant-balance" },
      { requestId: "r", principal: { kind: "admin" } },
    );
    merchant = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
  });
  afterAll(() => variant.cleanup());

  const linked = async () => (await linkedCheckoutOverRpc(client, merchant)).id;
  const run = (checkoutId: string) => client.call(getProcessorTokenOp, { checkout_id: checkoutId }, as(merchant), { timeoutMs: 10_000 });
  const counts = async () => ({
    customers: await uncheckedStore(store).collection("sandbox_transfer_customers").countDocuments({}),
    processorTokens: await uncheckedStore(store).collection("sandbox_processor_tokens").countDocuments({}),
    fundingSources: await uncheckedStore(store).collection("sandbox_funding_sources").countDocuments({}),
    transfers: await uncheckedStore(store).collection("sandbox_transfers").countDocuments({}),
    transactions: await uncheckedStore(store).collection("transactions").countDocuments({}),
  });
  /** What was added to each of `counts()` since `before`. */
  const addedSince = async (before: Awaited<ReturnType<typeof counts>>) => {
    const now = await counts();
    return Object.fromEntries(Object.entries(now).map(([k, n]) => [k, n - before[k as keyof typeof before]]));
  };

  describe.skipIf(!!variant.skipReason)("resuming", () => {
    it.each(STEPS)("finishes after a failure right after the %s step, without a second funding source or transfer", async (step) => {
      const id = await linked();
      const before = await counts();
      fault = { step, mode: "throw" };
      expect(await codeOf(run(id))).toBe("internal_error");
      const answer = await run(id);
      expect(answer.message).toBe("Transaction executed");
      expect(await run(id)).toEqual(answer);
      expect(await addedSince(before)).toMatchObject({ fundingSources: 1, transfers: 1, transactions: 1, customers: 1 });
    });

    it("resumes a call whose provider answers were never recorded with the same funding source, asking for a new processor token", async () => {
      const id = await linked();
      const before = await counts();
      loseNextFundingSourceWrite = true;
      expect(await codeOf(run(id))).toBe("internal_error");
      expect(await uncheckedStore(store).collection("transfer_attempts").findOne({ _id: id })).toMatchObject({ processorTokenSealed: null, customerUrl: null, fundingSourceUrl: null });
      expect((await run(id)).message).toBe("Transaction executed");
      expect(await addedSince(before)).toMatchObject({ processorTokens: 2, customers: 1, fundingSources: 1, transfers: 1, transactions: 1 });
    });

    it.each(["funding_source", "transaction_record"] as const)("takes over from a call that died after the %s step once its lease ran out", async (step) => {
      const id = await linked();
      const before = await counts();
      fault = { step, mode: "hang" };
      void run(id).catch(() => undefined); // dies (hangs) after the step, holding the lease
      // The fault is used up when the call reaches it: from then on it hangs holding the lease.
      await until(`the call to die after its ${step} step`, () => fault === null);
      expect(await codeOf(run(id))).toBe("transfer_in_progress");
      offsetMs += LEASE_MS + 1_000;
      const answer = await run(id);
      expect(answer.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await addedSince(before)).toMatchObject({ fundingSources: 1, transfers: 1, transactions: 1 });
    });

    it("completes a call that died after writing the record without checking its debit again, though its mandate was revoked and its account blocked since", async () => {
      const id = await linked();
      const before = await counts();
      fault = { step: "transaction_record", mode: "hang" };
      void run(id).catch(() => undefined); // dies (hangs) with the record written, holding the lease
      await until("the call to die after writing its record", () => fault === null);
      const raw = uncheckedStore(store);
      const attempt = (await raw.collection<{ _id: string; fundingFingerprint: string; transferId: string | null }>("transfer_attempts").findOne({ _id: id }))!;
      expect(attempt.transferId).toBeNull();
      await raw.collection<{ _id: string; status: string }>("mandates").findOneAndUpdate({ _id: attestedMandateId(id) }, { $set: { status: "revoked" } });
      const block = { _id: attempt.fundingFingerprint, failureCode: "R10", blockedAt: new Date().toISOString(), transactionUuid: "sc-other", checkoutId: "chk_other", merchantId: merchant.merchantId };
      await raw.collection<typeof block>("blocked_bank_accounts").insertOne(block);
      offsetMs += LEASE_MS + 1_000;
      const answer = await run(id);
      expect(answer.message).toBe("Transaction executed");
      expect(answer.transaction_id).toBe((await raw.collection<{ _id: string; checkoutRef: string; processor_transaction_id: string }>("transactions").findOne({ checkoutRef: id }))!.processor_transaction_id);
      expect(await addedSince(before)).toMatchObject({ transfers: 1, transactions: 1 });
    });

    it("answers 409 transfer_in_progress before the caller's deadline when the transfer would outlast it, and finishes it for the retry", async () => {
      const id = await linked();
      const before = await counts();
      fault = { step: "funding_source", mode: "slow" };
      // A 2 s deadline: the call answers 200 ms before it (a tenth; a reply after it would be a
      // service_timeout), and its work goes on under the lease.
      expect(await codeOf(client.call(getProcessorTokenOp, { checkout_id: id }, as(merchant), { timeoutMs: 2_000 }))).toBe("transfer_in_progress");
      await until("the slowed call to complete the attempt", async () => (await uncheckedStore(store).collection<{ _id: string; completed: boolean }>("transfer_attempts").findOne({ _id: id }))?.completed === true);
      const answer = await run(id);
      expect(answer.message).toBe("Transaction executed");
      expect(await addedSince(before)).toMatchObject({ transfers: 1, transactions: 1 });
    });

    it("refuses calls while another call holds the lease with 409, writing nothing: a crowd of retries cannot queue the holder's writes", async () => {
      const id = await linked();
      fault = { step: "funding_source", mode: "hang" };
      void run(id).catch(() => undefined); // holds the lease, hung after its funding_source step
      await until("the call to hang after its funding_source step", () => fault === null);
      const writesBefore = attemptWrites.length;
      const refusals = await Promise.all(Array.from({ length: 20 }, () => codeOf(run(id))));
      expect(refusals).toEqual(Array.from({ length: 20 }, () => "transfer_in_progress"));
      expect(attemptWrites.slice(writesBefore).filter((w) => w.filter["_id"] === id)).toEqual([]);
      offsetMs += LEASE_MS + 1_000; // frees the hung call's lease for the suite's later tests
      expect((await run(id)).message).toBe("Transaction executed");
    });

    it("answers another merchant's call as checkout_not_found, before and after the checkout's transfer started", async () => {
      const other = await client.call(createMerchantOp, { name: "Other" }, { requestId: "r", principal: { kind: "admin" } });
      const stranger: MerchantPrincipal = { kind: "merchant", merchantId: other.merchant.id, keyPrefix: other.key_prefix, livemode: false };
      const asStranger = (checkoutId: string) => codeOf(client.call(getProcessorTokenOp, { checkout_id: checkoutId }, as(stranger), { timeoutMs: 10_000 }));
      const id = await linked();
      expect(await asStranger(id)).toBe("checkout_not_found");
      await run(id); // the attempt exists now: a repeat call is answered from it
      expect(await asStranger(id)).toBe("checkout_not_found");
      expect(await uncheckedStore(store).collection("transfer_attempts").countDocuments({ _id: id })).toBe(1);
    });

    // Each transfer draws a sequential transaction id; drawn one counter write at a time they
    // queued on one document (on FerretDB, behind its per-document lock) and all timed out. How
    // long 100 take is bench/processor-token-burst.ts's to measure (10 s target); the timeouts here
    // only bound a loaded machine (6.4–6.6 s on FerretDB alone here, 26 s beside four workers).
    it("answers 100 concurrent calls on 100 checkouts, one transfer each", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(...(await Promise.all(Array.from({ length: 10 }, linked))));
      const before = await counts();
      const answers = await Promise.all(ids.map((id) => client.call(getProcessorTokenOp, { checkout_id: id }, as(merchant), { timeoutMs: 90_000 })));
      expect(answers.map((a) => a.message)).toEqual(ids.map(() => "Transaction executed"));
      expect(new Set(answers.map((a) => a.transaction_id)).size).toBe(100);
      expect(await addedSince(before)).toMatchObject({ transfers: 100, transactions: 100 });
    }, 180_000);

    it("writes a first charge's attempt three times: inserted holding its lease, the provider's three answers in one write, the transfer with the write that gives it back", async () => {
      const id = await linked();
      await run(id);
      expect(attemptInserts.filter((a) => a._id === id)).toEqual([expect.objectContaining({ leaseId: expect.stringMatching(/^[0-9a-f-]{36}$/) })]);
      const fields = attemptWrites.filter((w) => w.filter["_id"] === id).map((w) => Object.keys(w.update.$set ?? {}));
      expect(fields).toEqual([
        ["processorTokenSealed", "customerUrl", "fundingSourceUrl", "fundingFingerprint", "updatedAt"],
        ["transferId", "initiatedAt", "completed", "leaseId", "leaseUntil", "updatedAt"],
      ]);
      const transaction = await uncheckedStore(store).collection<{ _id: string; processor_transaction_id: string; transaction_date_time: string }>("transactions").findOne({ checkoutRef: id });
      expect(await uncheckedStore(store).collection("transfer_attempts").findOne({ _id: id })).toMatchObject({
        completed: true,
        leaseId: null,
        leaseUntil: null,
        transferId: transaction!.processor_transaction_id,
        initiatedAt: transaction!.transaction_date_time,
      });
    });

    it("writes a first charge's merchant-attested mandate once: inserted, with no mark that misses before it", async () => {
      // A debit's mark sets lastDebitAt (the outbox relay's writes to the mandate do not).
      const debitMarks = () => mandateWrites.filter((w) => "lastDebitAt" in (w.update.$set ?? {})).length;
      const id = await linked();
      const marksBefore = debitMarks();
      await run(id);
      expect(mandateInserts.filter((m) => m.checkoutId === id)).toEqual([expect.objectContaining({ type: "merchant_attested", lastDebitAt: expect.any(String) })]);
      expect(debitMarks()).toBe(marksBefore);
      await run(id); // a repeat call answers from the attempt and marks no debit
      expect(debitMarks()).toBe(marksBefore);
    });

    it("answers 502 provider_error on a provider failure and stays retryable", async () => {
      const id = await linked();
      bankData.failNext = true;
      const err = await run(id).then(
        () => null,
        (e: unknown) => e as AppError,
      );
      expect(err).toMatchObject({ code: "provider_error", providerCode: "INTERNAL_SERVER_ERROR" });
      expect((await run(id)).message).toBe("Transaction executed");
    });
  });
});
