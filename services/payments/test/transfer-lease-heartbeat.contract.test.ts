import { createMerchantOp, getProcessorTokenOp, type MerchantPrincipal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import type { TransferPort } from "../src/domain/transfers/ports/transfer.port.ts";
import { start } from "../src/index.ts";
import { sandboxTransfersThrough, transfersWith } from "../../../test/support/transfers-with.ts";
import { until } from "../../../test/support/until.ts";
import { as, codeOf } from "./support/payments-harness.ts";
import { leaseRenewalMissed, storeWithStepFaults, type TransferStep } from "./support/transfer-step-faults.ts";

/*
 * The transfer lease is short and renewed by a heartbeat while its call works. A provider step
 * slower than the whole lease must not let a second call take the checkout over (one transfer,
 * the others answered 409), and a call whose lease was taken over meanwhile must stop before its
 * next provider call or write, the writes that are not conditional on the lease included.
 */

const variants = await infraVariants();
/** Renewed every ~667 ms: long enough for renewals through a busy FerretDB (a write may take hundreds of ms there). */
const LEASE_MS = 2_000;
const SLOW_STEP_MS = 3.5 * LEASE_MS;

interface Attempt {
  _id: string;
  leaseId: string | null;
  leaseUntil: string | null;
  transferId: string | null;
  transactionUuid: string;
}

describe.each(variants)("the transfer lease's heartbeat over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let merchant: MerchantPrincipal;
  /** The checkout whose funding-source step takes SLOW_STEP_MS. */
  let slowCheckout: string | null = null;
  /** Provider funding sources and transfers asked for, by checkout. */
  const fundingSourceCalls = new Map<string, number>();
  const transferCalls = new Map<string, number>();
  /** What happens after a step of one checkout (the lease stolen, say); "transfer" is the provider's answer to it. */
  let afterStep: ((step: TransferStep | "transfer", checkoutId: string) => Promise<void>) | null = null;
  /** Told when the heartbeat of a call on `checkoutId` finds its lease taken over. */
  let renewalMissed: { checkoutId: string; resolve: () => void } | null = null;

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    const logger = silentLogger();
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64"), TRANSFER_LEASE_MS: String(LEASE_MS) });
    await startServices(["identity", "checkout"], { config, logger, transport: await variant.transport(), store });
    await start({
      transport: await variant.transport(),
      store: storeWithStepFaults(store, (step, checkoutId) => afterStep?.(step, checkoutId) ?? Promise.resolve(), {
        async missed(write) {
          if (!renewalMissed || !leaseRenewalMissed(write, renewalMissed.checkoutId)) return;
          // Told once the heartbeat has taken the answer in (its lease lost), not before.
          setImmediate(renewalMissed.resolve);
          renewalMissed = null;
        },
      }),
      logger,
      secretsKey: randomBytes(32),
      providers: config,
      transfers: await sandboxTransfersThrough(store, (inner): TransferPort =>
        transfersWith(inner, {
        async createFundingSource(input) {
          const checkoutId = input.name.split(" ").at(-1)!;
          fundingSourceCalls.set(checkoutId, (fundingSourceCalls.get(checkoutId) ?? 0) + 1);
          if (input.name.endsWith(slowCheckout ?? "-")) await sleep(SLOW_STEP_MS);
          return inner.createFundingSource(input);
        },
        async createTransfer(input) {
          const checkoutId = input.metadata?.["checkout_id"] ?? "?";
          transferCalls.set(checkoutId, (transferCalls.get(checkoutId) ?? 0) + 1);
          const created = await inner.createTransfer(input);
          await afterStep?.("transfer", checkoutId);
          return created;
        },
        }), { logger }),
    });
    client = await variant.transport();
    const created = await client.call(createMerchantOp, { name: "Acme" }, { requestId: "r", principal: { kind: "admin" } });
    merchant = { kind: "merchant", merchantId: created.merchant.id, keyPrefix: created.key_prefix, livemode: false };
  });
  afterAll(() => variant.cleanup());

  const linked = async () => (await linkedCheckoutOverRpc(client, merchant)).id;
  const run = (checkoutId: string) => client.call(getProcessorTokenOp, { checkout_id: checkoutId }, as(merchant), { timeoutMs: 10_000 });
  const attempts = () => uncheckedStore(store).collection<Attempt>("transfer_attempts");
  const transactionsOf = (checkoutId: string) => uncheckedStore(store).collection<{ _id: string; checkoutRef: string }>("transactions").find({ checkoutRef: checkoutId });
  const transfersOf = async (checkoutId: string) =>
    (await uncheckedStore(store).collection<{ _id: string; metadata: { key: string; value: string }[] }>("sandbox_transfers").find({})).filter((t) =>
      t.metadata.some((m) => m.key === "checkout_id" && m.value === checkoutId),
    );

  describe.skipIf(!!variant.skipReason)("renewal and loss", () => {
    it("keeps the lease through a provider step 3.5 times longer than it: no takeover, one transfer", async () => {
      const id = await linked();
      slowCheckout = id;
      const first = run(id);
      const refusals: string[] = [];
      const leaseAheadOfNow: boolean[] = [];
      let settled = false;
      void first.finally(() => (settled = true)).catch(() => undefined);
      // Another call every 200 ms (a caller's pace) while the slow one works: each must find the lease held.
      await until("the slow call to take the lease", async () => (await attempts().findOne({ _id: id }))?.leaseId != null);
      while (!settled) {
        const answer = await codeOf(run(id));
        // A call that arrives as the slow one finishes answers its body: the end of the race.
        if (answer === "resolved") break;
        refusals.push(answer);
        const attempt = await attempts().findOne({ _id: id });
        if (attempt?.leaseId) leaseAheadOfNow.push(Date.parse(attempt.leaseUntil!) > Date.now());
        await sleep(200);
      }
      const answer = await first;
      slowCheckout = null;
      expect(answer.message).toBe("Transaction executed");
      // The slow call outlived several leases, and nobody else ever got in.
      expect(refusals.length).toBeGreaterThanOrEqual(15);
      expect(new Set(refusals)).toEqual(new Set(["transfer_in_progress"]));
      expect(leaseAheadOfNow.length).toBeGreaterThanOrEqual(15);
      expect(leaseAheadOfNow.every(Boolean)).toBe(true);
      // Only the slow call worked on it: one funding-source request, one transfer request.
      expect(fundingSourceCalls.get(id)).toBe(1);
      expect(transferCalls.get(id)).toBe(1);
      expect(await transfersOf(id)).toHaveLength(1);
      expect(await transactionsOf(id)).toHaveLength(1);
      expect(await run(id)).toEqual(answer);
    }, 20_000);

    it.each([
      ["funding_source", "asks the provider for no transfer"],
      ["transfer", "draws no transaction id and writes no transaction record"],
    ] as const)("stops a call whose lease was taken over after the %s step: it %s", async (step, _what) => {
      const id = await linked();
      const counterBefore = await transactionCounter();
      afterStep = async (done, checkoutId) => {
        if (done !== step || checkoutId !== id) return;
        afterStep = null;
        // Another holder takes the lease while this call is between two steps...
        await attempts().findOneAndUpdate({ _id: id }, { $set: { leaseId: "thief", leaseUntil: new Date(Date.now() + 60_000).toISOString() } });
        // ...and this call's heartbeat finds out at its next renewal (about every 667 ms).
        await new Promise<void>((resolve) => (renewalMissed = { checkoutId: id, resolve }));
      };
      expect(await codeOf(run(id))).toBe("transfer_in_progress");
      const attempt = (await attempts().findOne({ _id: id }))!;
      // Nothing after the step: the thief's lease stands, and no write or provider call followed.
      expect(attempt.leaseId).toBe("thief");
      expect(transferCalls.get(id) ?? 0).toBe(step === "transfer" ? 1 : 0);
      expect(attempt.transferId).toBeNull();
      expect(await transactionsOf(id)).toHaveLength(0);
      expect(await transactionCounter()).toBe(counterBefore);

      // Once the thief's lease lapses, the next call finishes the same transfer.
      await attempts().findOneAndUpdate({ _id: id }, { $set: { leaseUntil: new Date(Date.now() - 1).toISOString() } });
      expect((await run(id)).message).toBe("Transaction executed");
      expect(await transfersOf(id)).toHaveLength(1);
      expect(await transactionsOf(id)).toHaveLength(1);
    }, 20_000);
  });

  /** The transaction-id counter's value (how many ids were drawn). */
  async function transactionCounter(): Promise<number> {
    const counter = await uncheckedStore(store).collection<{ _id: string; seq: number }>("counters").findOne({ _id: "transaction_id" });
    return counter?.seq ?? 0;
  }
});
