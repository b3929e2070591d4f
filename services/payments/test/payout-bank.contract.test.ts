import { randomBytes, randomUUID } from "node:crypto";
import { AppError, createMerchantOp, createPayoutOp, reconcileOp, updateMerchantFundingSourcesOp, type Principal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { sandboxTransfersThrough, transfersWith } from "../../../test/support/transfers-with.ts";
import { SandboxBankDataAdapter } from "../src/adapters/sandbox/sandbox-bank-data.adapter.ts";
import type { CreateTransferInput, FindTransferInput } from "../src/domain/transfers/ports/transfer.port.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();
const admin = { requestId: "r", principal: { kind: "admin" as const } };
const ledger = { requestId: "r", principal: { kind: "service", service: "ledger" } as Principal };

/*
 * docs/decisions/0050-payouts.md: with live providers a payout goes from the merchant's funding
 * source at the provider to the bank its `payout_funding_source` names; a merchant without one
 * gets `payout_funding_source_missing` and no transfer. Payments runs with PROVIDERS=live and the
 * providers replaced by the sandbox's behind a recorder (no network here).
 */
describe.each(variants)("a live merchant's payout bank over $name", (variant) => {
  let client: Transport;
  const made: CreateTransferInput[] = [];
  /** The transfers the recorder "made", by key: what findTransfer and getTransfer answer from. */
  const byKey = new Map<string, string>();
  const searches: FindTransferInput[] = [];
  /** Keys whose next create the provider makes but whose answer is lost (no answer came). */
  const loseAnswerOf = new Set<string>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    const store = await variant.store();
    const logger = silentLogger();
    const secrets = { SECRETS_KEY: randomBytes(32).toString("base64") };
    await startServices(["identity"], { config: loadConfig(secrets), logger, transport: await variant.transport(), store });
    await start({
      transport: await variant.transport(),
      store,
      logger,
      secretsKey: randomBytes(32),
      providers: loadConfig({ ...secrets, PROVIDERS: "live", RENEWAL_POLL_MS: "0", RECONCILE_EVERY: "0" }),
      bankData: new SandboxBankDataAdapter(store),
      transfers: await sandboxTransfersThrough(store, (inner) =>
        transfersWith(inner, {
          async createTransfer(input) {
            made.push(input);
            const transferId = byKey.get(input.idempotencyKey) ?? randomUUID();
            byKey.set(input.idempotencyKey, transferId);
            if (loseAnswerOf.delete(input.idempotencyKey)) throw new AppError("provider_error", "no answer from the transfer provider", { providerCode: "network_error" });
            return { transferId, transferUrl: `https://api.dwolla.com/transfers/${transferId}`, status: "pending" };
          },
          async findTransfer(input) {
            searches.push(input);
            const transferId = byKey.get(input.idempotencyKey);
            return transferId ? { transferId, transferUrl: `https://api.dwolla.com/transfers/${transferId}`, status: "pending" } : null;
          },
          async getTransfer(transferId) {
            return { transferId, status: "pending" };
          },
        }),
      ),
    });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const payout = (merchantId: string) => ({ payout_id: `po_${randomBytes(16).toString("hex")}`, merchant_id: merchantId, amount_cents: 12_345, currency: "USD" });

  describe.skipIf(!!variant.skipReason)("", () => {
    it("sends the payout from the merchant's funding source to its payout bank, once however often it is asked", async () => {
      const { merchant } = await client.call(
        createMerchantOp,
        { name: "Acme", destination_funding_source: "https://api.dwolla.com/funding-sources/acme-balance", payout_funding_source: "https://api.dwolla.com/funding-sources/acme-bank" },
        admin,
      );
      expect(merchant.payout_funding_source).toBe("https://api.dwolla.com/funding-sources/acme-bank");
      const input = payout(merchant.id);
      const before = made.length;
      const first = await client.call(createPayoutOp, input, ledger);
      expect(first).toMatchObject({ status: "pending" });
      expect(await client.call(createPayoutOp, input, ledger)).toEqual(first);
      expect(made.slice(before)).toEqual([
        expect.objectContaining({
          sourceFundingSource: "https://api.dwolla.com/funding-sources/acme-balance",
          destinationFundingSource: "https://api.dwolla.com/funding-sources/acme-bank",
          amountCents: 12_345,
          currency: "USD",
          idempotencyKey: input.payout_id,
        }),
      ]);
    });

    it("sends the next payout to the bank the admin changed to; a payout whose transfer was made keeps its bank", async () => {
      const balance = "https://api.dwolla.com/funding-sources/moved-balance";
      const oldBank = "https://api.dwolla.com/funding-sources/moved-old-bank";
      const newBank = "https://api.dwolla.com/funding-sources/moved-new-bank";
      const { merchant } = await client.call(createMerchantOp, { name: "Moved", destination_funding_source: balance, payout_funding_source: oldBank }, admin);
      const before = made.length;
      const first = payout(merchant.id);
      const sent = await client.call(createPayoutOp, first, ledger);
      expect(sent).toMatchObject({ status: "pending" });

      const moved = await client.call(updateMerchantFundingSourcesOp, { merchant_id: merchant.id, payout_funding_source: newBank }, admin);
      expect(moved).toMatchObject({ destination_funding_source: balance, payout_funding_source: newBank });
      // Asked again (a ledger retry): the transfer it made stands, nothing new goes out.
      expect(await client.call(createPayoutOp, first, ledger)).toEqual(sent);
      const next = payout(merchant.id);
      expect(await client.call(createPayoutOp, next, ledger)).toMatchObject({ status: "pending" });
      expect(made.slice(before).map((t) => [t.idempotencyKey, t.sourceFundingSource, t.destinationFundingSource])).toEqual([
        [first.payout_id, balance, oldBank],
        [next.payout_id, balance, newBank],
      ]);

      // Cleared: a live merchant's next payout has no bank to go to.
      await client.call(updateMerchantFundingSourcesOp, { merchant_id: merchant.id, payout_funding_source: null }, admin);
      expect(await client.call(createPayoutOp, payout(merchant.id), ledger)).toMatchObject({ status: "failed", failure_code: "payout_funding_source_missing" });
      expect(made.length).toBe(before + 2);
    });

    it("keeps a payout's ends from its first try: a retry after a lost answer sends the same transfer, and the reconciler finds it through its source", async () => {
      const balance = "https://api.dwolla.com/funding-sources/lost-balance";
      const oldBank = "https://api.dwolla.com/funding-sources/lost-old-bank";
      const { merchant } = await client.call(createMerchantOp, { name: "Lost answers", destination_funding_source: balance, payout_funding_source: oldBank }, admin);
      const before = made.length;

      // The provider made the transfer, the answer never came; the merchant's bank changes before the ledger asks again.
      const retried = payout(merchant.id);
      loseAnswerOf.add(retried.payout_id);
      await expect(client.call(createPayoutOp, retried, ledger)).rejects.toMatchObject({ code: "provider_error" });
      await client.call(updateMerchantFundingSourcesOp, { merchant_id: merchant.id, payout_funding_source: "https://api.dwolla.com/funding-sources/lost-new-bank" }, admin);
      const sent = await client.call(createPayoutOp, retried, ledger);
      expect(sent).toEqual({ status: "pending", transfer_id: byKey.get(retried.payout_id) });

      // No retry comes at all: the reconciler searches the transfers of the source's owner by the payout id.
      const found = payout(merchant.id);
      loseAnswerOf.add(found.payout_id);
      await expect(client.call(createPayoutOp, found, ledger)).rejects.toMatchObject({ code: "provider_error" });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const searchesBefore = searches.length;
      const report = await client.call(reconcileOp, { after_ms: 0 }, admin, { timeoutMs: 20_000 });
      expect(report.changes).toContainEqual({ kind: "payout", id: found.payout_id, from: "no transfer recorded", to: "pending" });
      expect(searches.slice(searchesBefore)).toContainEqual({ idempotencyKey: found.payout_id, customerUrl: null, fundingSourceUrl: balance });
      expect(await client.call(createPayoutOp, found, ledger)).toEqual({ status: "pending", transfer_id: byKey.get(found.payout_id) });

      expect(made.slice(before).map((t) => [t.idempotencyKey, t.sourceFundingSource, t.destinationFundingSource])).toEqual([
        [retried.payout_id, balance, oldBank],
        [retried.payout_id, balance, oldBank],
        [found.payout_id, balance, "https://api.dwolla.com/funding-sources/lost-new-bank"],
      ]);
    });

    it("lets only the admin change a merchant's funding sources", async () => {
      const { merchant } = await client.call(createMerchantOp, { name: "Guarded", payout_funding_source: "https://api.dwolla.com/funding-sources/guarded-bank" }, admin);
      const change = { merchant_id: merchant.id, payout_funding_source: "https://attacker.example/funding-sources/x" };
      const asSelf = { requestId: "r", principal: { kind: "merchant", merchantId: merchant.id, keyPrefix: "sk_live_guarded", livemode: true } as Principal };
      for (const meta of [ledger, asSelf]) {
        await expect(client.call(updateMerchantFundingSourcesOp, change, meta)).rejects.toMatchObject({ code: "permission_denied" });
      }
      expect(await client.call(updateMerchantFundingSourcesOp, { merchant_id: merchant.id }, admin)).toMatchObject({ payout_funding_source: "https://api.dwolla.com/funding-sources/guarded-bank" });
    });

    it("fails the payout of a live merchant with no payout bank, and moves no money", async () => {
      const { merchant } = await client.call(createMerchantOp, { name: "No bank", destination_funding_source: "https://api.dwolla.com/funding-sources/nb-balance" }, admin);
      expect(merchant.payout_funding_source).toBeNull();
      const before = made.length;
      expect(await client.call(createPayoutOp, payout(merchant.id), ledger)).toMatchObject({ status: "failed", failure_code: "payout_funding_source_missing" });
      expect(made.length).toBe(before);
    });
  });
});
