import { createHmac, randomBytes } from "node:crypto";
import {
  AppError,
  createMerchantOp,
  getCheckoutOp,
  getPaymentStatsOp,
  getProcessorTokenOp,
  handleTransferWebhookOp,
  reconcileOp,
  type MerchantPrincipal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { SandboxTransferAdapter } from "../src/adapters/sandbox-transfers/sandbox-transfer.adapter.ts";
import { JobLeaseRepository } from "../src/data-access/job-lease.repository.ts";
import { start } from "../src/index.ts";
import { sandboxTransfersThrough, transfersWith } from "../../../test/support/transfers-with.ts";
import { as, codeOf } from "./support/payments-harness.ts";
import { storeWithStepFaults, type TransferStep } from "./support/transfer-step-faults.ts";

const variants = await infraVariants();
const HOUR_MS = 3_600_000;
const WEBHOOK_SECRET = "whsec-test-dwolla";
const admin = { requestId: "cli", principal: { kind: "admin" as const } };

/**
 * Issue 19 items 2 and 3 (docs/api-notes.md, Convergence with the provider): whatever payments missed
 * (the provider's answer lost to a crash, a record never written, a notice that came before its
 * record, a notice that never came) is found again by asking the provider, and applied with
 * the same events a notice would produce; nothing here ever makes a second transfer.
 */
describe.each(variants)("the reconciler over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let merchant: MerchantPrincipal;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  /** The next transfer the provider makes loses its answer (the call fails after the provider acted). */
  let loseNextAnswer = false;
  let fault: TransferStep | null = null;
  let sandbox: SandboxTransferAdapter;
  /** The service's configuration: the fraud rules read their thresholds from it at each screening. */
  let config: ReturnType<typeof loadConfig>;

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    const logger = silentLogger();
    config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), DWOLLA_WEBHOOK_SECRET: WEBHOOK_SECRET, RECONCILE_EVERY: "0" });
    await startServices(["identity", "checkout"], { config, logger, transport: await variant.transport(), store });
    await start({
      transport: await variant.transport(),
      store: storeWithStepFaults(store, async (step) => {
        if (fault !== step) return;
        fault = null;
        throw new Error(`injected crash after ${step}`);
      }),
      logger,
      secretsKey: randomBytes(32),
      providers: config,
      now,
      transfers: await sandboxTransfersThrough(
        store,
        (inner) =>
          transfersWith(inner, {
            async createTransfer(input) {
              const created = await inner.createTransfer(input);
              if (!loseNextAnswer) return created;
              loseNextAnswer = false;
              throw new AppError("provider_error", "no answer from the transfer provider", { providerCode: "network_error" });
            },
          }),
        { now, logger },
      ),
    });
    sandbox = new SandboxTransferAdapter(store, logger, () => now().getTime());
    client = await variant.transport();
    const created = await client.call(createMerchantOp, { name: "Acme" }, admin);
    merchant = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
  });
  afterAll(() => variant.cleanup());

  const raw = () => uncheckedStore(store);
  const linked = async () => (await linkedCheckoutOverRpc(client, merchant)).id;
  const run = (checkoutId: string) => client.call(getProcessorTokenOp, { checkout_id: checkoutId }, as(merchant), { timeoutMs: 5_000 });
  const reconcile = (afterMs = 0) => client.call(reconcileOp, { after_ms: afterMs }, admin, { timeoutMs: 20_000 });
  const checkout = (id: string) => client.call(getCheckoutOp, { checkout_id: id }, as(merchant));
  const attempt = (id: string) => raw().collection<{ _id: string; transactionUuid: string; transferId: string | null }>("transfer_attempts").findOne({ _id: id });
  const transfersAtProvider = async (id: string) => raw().collection("sandbox_transfers").countDocuments({ correlationId: (await attempt(id))!.transactionUuid });
  const record = async (id: string) => raw().collection<{ _id: string; transaction_status: string }>("transactions").findOne({ _id: (await attempt(id))!.transactionUuid });
  /** Moves the service's clock on: a reconcile with `after_ms: 0` takes what was written strictly before now. */
  const past = () => void (offsetMs += 5);
  /** A transfer whose creation the provider answered, but whose answer payments never got. */
  const lostAnswer = async () => {
    const id = await linked();
    loseNextAnswer = true;
    expect(await codeOf(run(id))).toBe("provider_error");
    expect(await record(id)).toBeNull();
    expect(await transfersAtProvider(id)).toBe(1);
    past();
    return id;
  };
  const providerTransferOf = async (id: string) =>
    (await raw().collection<{ _id: string }>("sandbox_transfers").findOne({ correlationId: (await attempt(id))!.transactionUuid }))!._id;

  describe.skipIf(!!variant.skipReason)("finishing what a crash left", () => {
    it("writes the record of a transfer whose answer was lost, with its event, and one transfer at the provider", async () => {
      const id = await lostAnswer();
      const report = await reconcile();
      expect(report.busy).toBe(false);
      expect(report.changes).toContainEqual({ kind: "attempt", id, from: "no transfer recorded", to: expect.stringMatching(/^transaction sc-/) });
      expect(await record(id)).toMatchObject({ transaction_status: "pending" });
      expect(await transfersAtProvider(id)).toBe(1);
      // The checkout follows the record's transaction.created; the merchant's next call answers it.
      await eventually(async () => expect((await checkout(id)).status).toBe("transfer_pending"));
      const answer = await run(id);
      expect(answer.transaction_uuid).toBe((await attempt(id))!.transactionUuid);
      expect(answer.transaction_id).toBe(await providerTransferOf(id));
      expect(await transfersAtProvider(id)).toBe(1);
    });

    it("records a debit made before its answer was lost without screening it again, though a rule would hold it now", async () => {
      const id = await lostAnswer();
      const limit = config.FRAUD_NEW_ACCOUNT_LIMIT;
      // From here on, any first debit of an account linked within the hour is held for review.
      config.FRAUD_NEW_ACCOUNT_LIMIT = 1;
      try {
        expect((await run(await linked())).transaction_status).toBe("in_review");
        const report = await reconcile();
        expect(report.changes).toContainEqual({ kind: "attempt", id, from: "no transfer recorded", to: expect.stringMatching(/^transaction sc-/) });
        expect(await record(id)).toMatchObject({ transaction_status: "pending" });
        expect(await raw().collection("fraud_reviews").countDocuments({ checkoutId: id })).toBe(0);
        expect(await transfersAtProvider(id)).toBe(1);
      } finally {
        config.FRAUD_NEW_ACCOUNT_LIMIT = limit;
      }
    });

    it("completes the attempt when the call died between writing the record and completing it", async () => {
      const id = await linked();
      fault = "transaction_record";
      expect(await codeOf(run(id))).toBe("internal_error");
      // The record names the transfer; the attempt takes it only with its completion.
      expect((await attempt(id))!.transferId).toBeNull();
      expect(await record(id)).toMatchObject({ transaction_status: "pending" });
      past();
      const report = await reconcile();
      expect(report.changes).toContainEqual({ kind: "attempt", id, from: "transaction recorded, attempt not completed", to: expect.any(String) });
      expect((await attempt(id))!.transferId).toBe(await providerTransferOf(id));
      expect(await raw().collection("transactions").countDocuments({ checkoutRef: id })).toBe(1);
      expect(await transfersAtProvider(id)).toBe(1);
      // A second pass finds nothing left to do for it.
      expect((await reconcile()).changes.filter((c) => c.id === id)).toEqual([]);
    });

    it("writes the record of an attempt that names its transfer without one, as attempts written before the record came first may", async () => {
      const id = await lostAnswer();
      await raw().collection("transfer_attempts").findOneAndUpdate({ _id: id }, { $set: { transferId: await providerTransferOf(id) } });
      const report = await reconcile();
      expect(report.changes).toContainEqual({ kind: "attempt", id, from: "transfer recorded, no transaction record", to: expect.any(String) });
      expect(await record(id)).toMatchObject({ transaction_status: "pending" });
      expect(await transfersAtProvider(id)).toBe(1);
      expect((await reconcile()).changes.filter((c) => c.id === id)).toEqual([]);
    });

    it("resumes 25 hours later, past the provider's idempotency window, with a lookup and no second transfer", async () => {
      const id = await lostAnswer();
      offsetMs += 25 * HOUR_MS;
      const answer = await run(id);
      expect(answer.transaction_id).toBe(await providerTransferOf(id));
      expect(await transfersAtProvider(id)).toBe(1);
      expect(await record(id)).toMatchObject({ transaction_status: "pending" });
    });

    it("leaves alone an attempt whose transfer the provider never made: no record, no transfer", async () => {
      const id = await linked();
      fault = "funding_source";
      expect(await codeOf(run(id))).toBe("internal_error");
      past();
      const report = await reconcile();
      expect(report.changes.filter((c) => c.id === id)).toEqual([]);
      expect(await transfersAtProvider(id)).toBe(0);
      expect(await record(id)).toBeNull();
    });
  });

  describe.skipIf(!!variant.skipReason)("notices", () => {
    const notify = (transferId: string, eventId = `evt-${randomBytes(8).toString("hex")}`) => {
      const body = JSON.stringify({ id: eventId, topic: "customer_transfer_completed", resourceId: transferId, timestamp: now().toISOString() });
      return client.call(handleTransferWebhookOp, { raw_body: body, signature: createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex") }, { requestId: "hook", principal: { kind: "anonymous" } });
    };

    it("keeps a notice that arrives before its record, and applies it once the record exists", async () => {
      const id = await lostAnswer();
      const transferId = await providerTransferOf(id);
      await sandbox.simulate(transferId, { status: "completed" });
      expect(await notify(transferId)).toEqual({ received: true, duplicate: false });
      expect(await raw().collection("transfer_notices").countDocuments({ transferId })).toBe(1);
      // The merchant's retry writes the record: the kept notice is applied at once.
      await run(id);
      expect(await record(id)).toMatchObject({ transaction_status: "completed" });
      expect(await raw().collection("transfer_notices").countDocuments({ transferId })).toBe(0);
      await eventually(async () => expect((await checkout(id)).status).toBe("paid"));
      expect(await transfersAtProvider(id)).toBe(1);
    });

    it("settles a transfer whose notice never came, once it has been pending past the cut-off", async () => {
      const id = await linked();
      const { transaction_id } = await run(id);
      await sandbox.simulate(transaction_id, { status: "completed" });
      // Pending for less than an hour: not looked at yet.
      const uuid = (await attempt(id))!.transactionUuid;
      expect((await reconcile(HOUR_MS)).changes.filter((c) => c.id === uuid)).toEqual([]);
      expect(await record(id)).toMatchObject({ transaction_status: "pending" });
      offsetMs += HOUR_MS + 1_000;
      const report = await reconcile(HOUR_MS);
      expect(report.changes).toContainEqual({ kind: "transaction", id: uuid, from: "pending", to: "completed" });
      expect(await record(id)).toMatchObject({ transaction_status: "completed" });
      await eventually(async () => expect((await checkout(id)).status).toBe("paid"));
      // A notice arriving after the reconciler applied it changes nothing.
      expect(await notify(transaction_id)).toEqual({ received: true, duplicate: false });
      expect(await record(id)).toMatchObject({ transaction_status: "completed" });
    });

    it("counts a settlement once in the overview's totals, however many notices and passes repeat it", async () => {
      const stats = async () => (await client.call(getPaymentStatsOp, {}, as(merchant))).windows[0]!;
      const before = await stats();
      const id = await linked();
      const { transaction_id } = await run(id);
      await sandbox.simulate(transaction_id, { status: "completed" });
      const eventId = `evt-${randomBytes(8).toString("hex")}`;
      // The same notice redelivered, other notices of the same transfer, all at once, then the reconciler.
      await Promise.all([notify(transaction_id, eventId), notify(transaction_id, eventId), notify(transaction_id), notify(transaction_id)]);
      await reconcile();
      expect(await record(id)).toMatchObject({ transaction_status: "completed" });
      const cents = (await raw().collection<{ _id: string; amountCents: number }>("transactions").findOne({ _id: (await attempt(id))!.transactionUuid }))!.amountCents;
      const after = await stats();
      expect(after.settled).toBe(before.settled + 1);
      expect(Math.round(Number(after.settled_volume) * 100)).toBe(Math.round(Number(before.settled_volume) * 100) + cents);
    });
  });

  describe.skipIf(!!variant.skipReason)("one pass at a time", () => {
    it("answers busy while another replica holds the pass", async () => {
      const jobs = new JobLeaseRepository(store);
      const lease = await jobs.take("reconciler", now().toISOString(), new Date(now().getTime() + 60_000).toISOString());
      expect(lease).not.toBeNull();
      expect(await reconcile()).toEqual({ busy: true, checked: 0, errors: 0, changes: [] });
      await jobs.release("reconciler", lease!);
      expect((await reconcile()).busy).toBe(false);
    });
  });
});
