import { createMerchantOp, getProcessorTokenOp, startMicroDepositsOp, verifyMicroDepositsOp, type MerchantPrincipal, type UserPrincipal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { SandboxBankDataAdapter } from "../src/adapters/sandbox/sandbox-bank-data.adapter.ts";
import { start } from "../src/index.ts";
import { as, codeOf, consumer } from "./support/payments-harness.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;
const UNVERIFIABLE = 2;

type Linked = { id: string; user: UserPrincipal; linkToken: string };

/**
 * Account validation by micro-deposits (docs/decisions/0041-account-validation.md) over the
 * bus and the store: the walk from link to first debit, the lock after three wrong pairs, the
 * 10-day expiry on payments' own clock, races, and whose account it is.
 */
describe.each(variants)("micro-deposits over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let merchant: MerchantPrincipal;
  let offsetMs = 0;

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    const logger = silentLogger();
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    await startServices(["identity", "checkout"], { config, logger, transport: await variant.transport(), store });
    const now = () => new Date(Date.now() + offsetMs);
    await start({
      transport: await variant.transport(),
      store,
      logger,
      secretsKey: randomBytes(32),
      providers: config,
      bankData: new SandboxBankDataAdapter(store, () => now().getTime()),
      now,
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

  const link = (account = UNVERIFIABLE): Promise<Linked> => linkedCheckoutOverRpc(client, merchant, consumer(), {}, account);
  const startDeposits = (c: Linked, user = c.user) => client.call(startMicroDepositsOp, { link_token: c.linkToken }, as(user));
  const verify = (c: Linked, amounts: [string, string], user = c.user) => client.call(verifyMicroDepositsOp, { link_token: c.linkToken, amounts }, as(user));
  const charge = (c: Linked) => client.call(getProcessorTokenOp, { checkout_id: c.id }, as(merchant));
  /** The amounts the simulator sent to the account (what the sandbox's notice shows the consumer). */
  const sentAmounts = async (c: Linked): Promise<[string, string]> => {
    const method = await uncheckedStore(store).collection<{ _id: string; microDeposits: { reference: string } }>("payment_methods").findOne({ _id: c.id });
    const id = method!.microDeposits.reference.split("/").at(-1)!;
    const pair = await uncheckedStore(store).collection<{ _id: string; amountsCents: number[] }>("sandbox_micro_deposits").findOne({ _id: id });
    return pair!.amountsCents.map((cents) => `0.${String(cents).padStart(2, "0")}`) as [string, string];
  };
  /** A pair that is surely not the one sent. */
  const wrongPair = async (c: Linked): Promise<[string, string]> => {
    const sent = await sentAmounts(c);
    return ["0.99", "0.98", "0.97", "0.96"].filter((x) => !sent.includes(x)).slice(0, 2) as [string, string];
  };
  const fundingSourceOf = async (c: Linked) =>
    (await uncheckedStore(store).collection<{ _id: string; microDeposits: { fundingSourceUrl: string } }>("payment_methods").findOne({ _id: c.id }))!.microDeposits.fundingSourceUrl;
  const pairsSentTo = async (c: Linked) => {
    const method = await uncheckedStore(store).collection<{ _id: string; microDeposits: { fundingSourceUrl: string } | null }>("payment_methods").findOne({ _id: c.id });
    const url = method?.microDeposits?.fundingSourceUrl;
    return url ? uncheckedStore(store).collection("sandbox_micro_deposits").countDocuments({ fundingSourceUrl: url }) : 0;
  };

  describe.skipIf(!!variant.skipReason)("the walk", () => {
    it("refuses the first debit of an unvalidated account, sends one pair, validates with the right amounts in any order, then debits", async () => {
      const c = await link();
      expect(await codeOf(charge(c))).toBe("bank_account_not_validated");
      expect(await codeOf(verify(c, ["0.01", "0.02"]))).toBe("micro_deposits_not_started");

      const started = await startDeposits(c);
      expect(started).toMatchObject({ object: "bank_account_validation", checkout_id: c.id, status: "micro_deposits_sent", validation: null, micro_deposits: { tries_left: 3 } });
      expect(Date.parse(started.micro_deposits!.expires_at) - Date.parse(started.micro_deposits!.sent_at)).toBe(10 * DAY_MS);
      // Started again: the same pair, nothing sent twice.
      expect(await startDeposits(c)).toEqual(started);
      expect(await pairsSentTo(c)).toBe(1);
      // Two credits described ACCTVERIFY and the debit that takes them back, at the transfer provider.
      const [a, b] = await sentAmounts(c);
      const pair = (await uncheckedStore(store).collection<{ _id: string; idempotencyKey: string }>("sandbox_micro_deposits").findOne({ fundingSourceUrl: await fundingSourceOf(c) }))!;
      const legs = [];
      for (const leg of ["credit-1", "credit-2", "debit"]) {
        legs.push(await uncheckedStore(store).collection<{ _id: string; amountCents: number; metadata: unknown }>("sandbox_transfers").findOne({ idempotencyKey: `${pair.idempotencyKey}:${leg}` }));
      }
      const cents = (x: string) => Math.round(Number(x) * 100);
      expect(legs.map((l) => l?.amountCents)).toEqual([cents(a), cents(b), cents(a) + cents(b)]);
      expect(legs.every((l) => JSON.stringify(l?.metadata).includes("ACCTVERIFY"))).toBe(true);

      expect(await codeOf(charge(c))).toBe("bank_account_not_validated");
      const validated = await verify(c, [b, a]);
      expect(validated).toMatchObject({ status: "validated", validation: { method: "micro_deposits" } });
      expect(await verify(c, [a, b])).toEqual(validated);
      expect(await codeOf(startDeposits(c))).toBe("bank_account_already_validated");

      expect((await charge(c)).message).toBe("Transaction executed");
    });

    it("counts wrong pairs, locks the account at the third, and refuses it from then on; another account still validates", async () => {
      const c = await link();
      await startDeposits(c);
      const wrong = await wrongPair(c);
      const first = await verify(c, wrong).catch((e: { code: string; message: string }) => e);
      expect(first).toMatchObject({ code: "micro_deposit_amounts_mismatch", message: expect.stringContaining("2 tries left") });
      expect(await codeOf(verify(c, wrong))).toBe("micro_deposit_amounts_mismatch");
      expect(await codeOf(verify(c, wrong))).toBe("micro_deposits_locked");
      // Locked: even the right pair, a new start and a debit are refused.
      expect(await codeOf(verify(c, await sentAmounts(c)))).toBe("micro_deposits_locked");
      expect(await codeOf(startDeposits(c))).toBe("micro_deposits_locked");
      expect(await codeOf(charge(c))).toBe("bank_account_not_validated");

      const other = await link();
      await startDeposits(other);
      expect(await verify(other, await sentAmounts(other))).toMatchObject({ status: "validated" });
      expect((await charge(other)).message).toBe("Transaction executed");
    });

    it("expires the amounts 10 days after they were sent, and a new start sends a new pair", async () => {
      const c = await link();
      await startDeposits(c);
      const old = await sentAmounts(c);
      offsetMs += 10 * DAY_MS + 60_000;
      try {
        expect(await codeOf(verify(c, old))).toBe("micro_deposits_expired");
        const again = await startDeposits(c);
        expect(again).toMatchObject({ status: "micro_deposits_sent", micro_deposits: { tries_left: 3 } });
        expect(await pairsSentTo(c)).toBe(2);
        expect(await verify(c, await sentAmounts(c))).toMatchObject({ status: "validated" });
      } finally {
        offsetMs -= 10 * DAY_MS + 60_000;
      }
    });

    it("validates accounts the bank-data provider returned numbers for at link time, as before", async () => {
      const c = await link(0);
      expect(await codeOf(startDeposits(c))).toBe("bank_account_already_validated");
      expect((await charge(c)).message).toBe("Transaction executed");
    });
  });

  describe.skipIf(!!variant.skipReason)("races and whose account", () => {
    it("sends one pair when 10 starts race, and validates once when 20 right verifies race", async () => {
      const c = await link();
      const starts = await Promise.allSettled(Array.from({ length: 10 }, () => startDeposits(c)));
      expect(starts.filter((s) => s.status === "fulfilled").length).toBeGreaterThan(0);
      expect(await pairsSentTo(c)).toBe(1);
      expect(await validationVersion(c.id)).toBe(3);
      const amounts = await sentAmounts(c);
      const verifies = await Promise.allSettled(Array.from({ length: 20 }, () => verify(c, amounts)));
      for (const v of verifies) {
        if (v.status === "fulfilled") expect(v.value).toMatchObject({ status: "validated" });
        else expect((v.reason as { code: string }).code).toBe("transfer_in_progress");
      }
      expect(verifies.some((v) => v.status === "fulfilled")).toBe(true);
      // Every change is one conditional write counting `validationVersion`: the link (1), the
      // round claimed (2) and sent (3), one validation (4); a second round or validation would count.
      expect(await validationVersion(c.id)).toBe(4);
    });

    it("lets no other consumer and no merchant act on the account", async () => {
      const c = await link();
      expect(await codeOf(startDeposits(c, consumer()))).toBe("checkout_claimed");
      expect(await codeOf(client.call(startMicroDepositsOp, { link_token: c.linkToken }, as(merchant)))).toMatch(/permission_denied|auth_token_missing|auth_token_invalid/);
      await startDeposits(c);
      expect(await codeOf(verify(c, await sentAmounts(c), consumer()))).toBe("checkout_claimed");
      expect(await codeOf(client.call(startMicroDepositsOp, { link_token: "lt_unknown", checkout_id: c.id }, as(c.user)))).toBe("link_token_invalid");
      const another = await link();
      expect(await codeOf(client.call(startMicroDepositsOp, { link_token: c.linkToken, checkout_id: another.id }, as(c.user)))).toBe("link_token_mismatch");
    });
  });

  async function validationVersion(checkoutId: string): Promise<number | undefined> {
    const method = await uncheckedStore(store).collection<{ _id: string; validationVersion?: number }>("payment_methods").findOne({ _id: checkoutId });
    return method?.validationVersion;
  }
});
