import { AppError } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../../test/support/infra.ts";
import { SandboxTransferAdapter } from "../../src/adapters/sandbox-transfers/sandbox-transfer.adapter.ts";
import { SandboxBankDataAdapter } from "../../src/adapters/sandbox/sandbox-bank-data.adapter.ts";
import { TransferRefused } from "../../src/domain/transfers/ports/transfer.port.ts";

const variants = await infraVariants();

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe.each(variants)("sandbox transfer simulator on $name", (variant) => {
  let store: Store;
  const sandbox = () => new SandboxTransferAdapter(store, silentLogger());
  const key = () => `transfer-${crypto.randomUUID()}`;

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
  });
  afterAll(() => variant.cleanup());

  /** A consumer's funding source and a merchant's configured account, as a payment uses them. */
  async function payment(s: SandboxTransferAdapter, amountCents = 10_750) {
    const { customerUrl } = await s.ensureCustomer({ userId: crypto.randomUUID().replaceAll("-", ""), phone: "+15551234567" });
    const { fundingSourceUrl } = await s.createFundingSource({ customerUrl, processorToken: "processor-sandbox-x", name: "Plaid Checking", idempotencyKey: key() });
    return { sourceFundingSource: fundingSourceUrl, destinationFundingSource: "merchant-account-1", amountCents, currency: "USD", idempotencyKey: key() };
  }

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("fingerprints the bank account behind a processor token: the same account linked again (any checkout) alike, another account or consumer not", async () => {
      const s = sandbox();
      const bank = new SandboxBankDataAdapter(store);
      /** Links the consumer's sandbox item through a new checkout and adds account `index` as a funding source. */
      const fingerprintOf = async (userId: string, index: number) => {
        const link = await bank.createLinkToken({ clientUserId: userId, checkoutId: `chk_${crypto.randomUUID().replaceAll("-", "")}` });
        const pub = await bank.createSandboxPublicToken(link.linkToken);
        const item = await bank.exchangePublicToken(pub.publicToken);
        const { processorToken } = await bank.createProcessorToken({ accessToken: item.accessToken, accountId: pub.accounts[index]!.accountId, processor: "dwolla" });
        const { customerUrl } = await s.ensureCustomer({ userId, phone: "+15551234567" });
        return (await s.createFundingSource({ customerUrl, processorToken, name: "Plaid Checking", idempotencyKey: key() })).fingerprint;
      };
      const consumer = "c".repeat(32);
      const checking = await fingerprintOf(consumer, 0);
      expect(checking).toMatch(/^[0-9a-f]{64}$/);
      expect(await fingerprintOf(consumer, 0)).toBe(checking);
      expect(await fingerprintOf(consumer, 1)).not.toBe(checking);
      expect(await fingerprintOf("d".repeat(32), 0)).not.toBe(checking);
      // A processor token the simulator's bank never issued names no known account.
      const { customerUrl } = await s.ensureCustomer({ userId: consumer, phone: "+15551234567" });
      expect((await s.createFundingSource({ customerUrl, processorToken: "processor-sandbox-x", name: "x", idempotencyKey: key() })).fingerprint).toBeNull();
    });

    it("creates one customer per user however many callers race", async () => {
      const s = sandbox();
      const before = await s.stats();
      const input = { userId: "a".repeat(32), phone: "+15551234567" };
      const answers = await Promise.all(Array.from({ length: 20 }, () => s.ensureCustomer(input)));
      expect(new Set(answers.map((a) => a.customerUrl)).size).toBe(1);
      expect(answers[0]!.customerUrl).toMatch(/^sandbox:\/\/customers\/[0-9a-f-]{36}$/);
      expect((await s.stats()).customersCreated - before.customersCreated).toBe(1);
    });

    it("answers the same funding source for the same key, and refuses an unknown customer", async () => {
      const s = sandbox();
      const { customerUrl } = await s.ensureCustomer({ userId: "b".repeat(32), phone: "+15551234567" });
      const input = { customerUrl, processorToken: "processor-sandbox-1", name: "Plaid Checking", idempotencyKey: key() };
      const first = await s.createFundingSource(input);
      expect(await s.createFundingSource(input)).toEqual(first);
      expect((await s.createFundingSource({ ...input, idempotencyKey: key() })).fundingSourceUrl).not.toBe(first.fundingSourceUrl);
      const err = await failure(s.createFundingSource({ ...input, customerUrl: `sandbox://customers/${crypto.randomUUID()}` }));
      expect(err).toMatchObject({ code: "provider_error", providerCode: "NotFound" });
    });

    it("starts exactly one transfer when 50 callers race with one idempotency key", async () => {
      const s = sandbox();
      const input = await payment(s);
      const before = await s.stats();
      const answers = await Promise.all(Array.from({ length: 50 }, () => s.createTransfer(input)));
      expect(new Set(answers.map((a) => a.transferId)).size).toBe(1);
      expect(answers[0]).toMatchObject({ status: "pending", transferId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/) });
      const after = await s.stats();
      expect(after.transfersCreated - before.transfersCreated).toBe(1);
      expect(after.calls.createTransfer).toBe(50);
    });

    it("starts one transfer when two processes (adapter instances) race on the same store", async () => {
      const [a, b] = [sandbox(), sandbox()];
      const input = await payment(a);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).createTransfer(input)));
      expect(new Set(answers.map((x) => x.transferId)).size).toBe(1);
    });

    it("refuses for good what Dwolla refuses: a non-USD currency, a bad amount, an unknown funding source", async () => {
      const s = sandbox();
      const input = await payment(s);
      const euro = await failure(s.createTransfer({ ...input, currency: "EUR" }));
      expect(euro).toBeInstanceOf(TransferRefused);
      expect(euro).toMatchObject({ providerCode: "ValidationError" });
      expect(await failure(s.createTransfer({ ...input, amountCents: 0 }))).toMatchObject({ providerCode: "ValidationError" });
      expect(await failure(s.createTransfer({ ...input, amountCents: 1.5 }))).toMatchObject({ providerCode: "ValidationError" });
      const unknown = `sandbox://funding-sources/${crypto.randomUUID()}`;
      expect(await failure(s.createTransfer({ ...input, sourceFundingSource: unknown }))).toMatchObject({ providerCode: "NotFound" });
      expect(await failure(s.getTransfer(crypto.randomUUID()))).toMatchObject({ code: "provider_error", providerCode: "NotFound" });
    });

    it("keeps metadata whose keys are not valid field names", async () => {
      const s = sandbox();
      const created = await s.createTransfer({ ...(await payment(s)), metadata: { "checkout.id": "chk_1", $x: "y" } });
      expect(await s.getTransfer(created.transferId)).toEqual({ transferId: created.transferId, status: "pending" });
    });

    it("moves a pending transfer to completed, with a status event", async () => {
      const s = sandbox();
      const { transferId } = await s.createTransfer(await payment(s));
      const result = await s.simulate(transferId, { status: "completed" });
      expect(result).toEqual({
        changed: true,
        event: { eventId: expect.stringMatching(/^[0-9a-f-]{36}$/), transferId, status: "completed", occurredAt: expect.any(String) },
        transfer: { transferId, status: "completed" },
      });
      expect(await s.getTransfer(transferId)).toEqual({ transferId, status: "completed" });
    });

    it("moves a pending transfer to failed with R01 by default, or the code given", async () => {
      const s = sandbox();
      const first = await s.createTransfer(await payment(s));
      const r1 = await s.simulate(first.transferId, { status: "failed" });
      expect(r1).toMatchObject({ changed: true, event: { status: "failed", failureCode: "R01" } });
      expect(await s.getTransfer(first.transferId)).toEqual({ transferId: first.transferId, status: "failed", failureCode: "R01" });
      const second = await s.createTransfer(await payment(s));
      expect(await s.simulate(second.transferId, { status: "failed", failureCode: "r02" })).toMatchObject({ transfer: { failureCode: "R02" } });
    });

    it("returns a completed transfer once when a failure is simulated afterwards (an ACH return), and never moves it again", async () => {
      const s = sandbox();
      const { transferId } = await s.createTransfer(await payment(s));
      await s.simulate(transferId, { status: "completed" });
      const returned = await s.simulate(transferId, { status: "failed", failureCode: "R10" });
      expect(returned).toMatchObject({ changed: true, event: { status: "failed", failureCode: "R10" }, transfer: { transferId, status: "failed", failureCode: "R10" } });
      for (const body of [{ status: "completed" as const }, { status: "failed" as const, failureCode: "R01" }]) {
        expect(await s.simulate(transferId, body)).toEqual({ changed: false, reason: "transfer is already failed", event: returned.event, transfer: { transferId, status: "failed", failureCode: "R10" } });
      }
    });

    it("leaves a failed transfer failed when completion is simulated afterwards, and says so", async () => {
      const s = sandbox();
      const { transferId } = await s.createTransfer(await payment(s));
      const failed = await s.simulate(transferId, { status: "failed", failureCode: "R01" });
      const again = await s.simulate(transferId, { status: "completed" });
      expect(again).toEqual({ changed: false, reason: "transfer is already failed", event: failed.event, transfer: { transferId, status: "failed", failureCode: "R01" } });
    });

    it("lets exactly one of racing simulations win, for the settlement and for the return", async () => {
      const s = sandbox();
      const { transferId } = await s.createTransfer(await payment(s));
      for (const status of ["completed", "failed"] as const) {
        const results = await Promise.all(Array.from({ length: 20 }, () => s.simulate(transferId, { status })));
        const winners = results.filter((r) => r.changed);
        expect(winners).toHaveLength(1);
        expect(results.every((r) => r.event?.eventId === winners[0]!.event.eventId)).toBe(true);
        expect((await s.getTransfer(transferId)).status).toBe(status);
      }
    });

    it("refuses a bad simulation: unknown transfer, status, or return code", async () => {
      const s = sandbox();
      const { transferId } = await s.createTransfer(await payment(s));
      expect(await failure(s.simulate(crypto.randomUUID(), { status: "completed" }))).toMatchObject({ code: "resource_missing" });
      expect(await failure(s.simulate(transferId, { status: "pending" as never }))).toMatchObject({ code: "invalid_status", param: "status" });
      expect(await failure(s.simulate(transferId, { status: "failed", failureCode: "X1" }))).toMatchObject({ code: "parameter_invalid", param: "failure_code" });
      expect(await s.getTransfer(transferId)).toEqual({ transferId, status: "pending" });
    });

    it("counts what it created and the calls made through one instance", async () => {
      const s = sandbox();
      const before = await s.stats();
      const input = await payment(s);
      await s.createTransfer(input);
      await s.createTransfer(input);
      const after = await s.stats();
      expect({
        customers: after.customersCreated - before.customersCreated,
        fundingSources: after.fundingSourcesCreated - before.fundingSourcesCreated,
        transfers: after.transfersCreated - before.transfersCreated,
      }).toEqual({ customers: 1, fundingSources: 1, transfers: 1 });
      expect(after.calls).toEqual({ ensureCustomer: 1, createFundingSource: 1, createTransfer: 2, getTransfer: 0, findTransfer: 0 });
    });
  });
});
