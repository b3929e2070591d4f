import { setTimeout as sleep } from "node:timers/promises";
import { listTransactionsOp, type TransactionRecord } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { as } from "./support/payments-harness.ts";
import { startRenewals, withCreateTransfer, type RenewalsHarness, type Subscription } from "./support/renewals-harness.ts";

const variants = await infraVariants();
const POLL_MS = 50;
const DAY_MS = 86_400_000;

/**
 * The renewal scheduler (issue 11) with two payments replicas racing on one queue and store,
 * each polling every 50 ms on payments' clock: every period of every subscription is charged
 * once, and after downtime each missed period is charged once, in order.
 */
describe.each(variants)("the renewal scheduler over $name", (variant) => {
  /** createTransfer calls per idempotency key, across both replicas. */
  const asked = new Map<string, number>();
  let h: RenewalsHarness;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRenewals(variant, {
      replicas: 2,
      pollMs: POLL_MS,
      startAt: "2027-03-15T12:00:00.000Z",
      wrapTransfers: withCreateTransfer((input, inner) => {
        asked.set(input.idempotencyKey, (asked.get(input.idempotencyKey) ?? 0) + 1);
        return inner.createTransfer(input);
      }),
    });
  });
  afterAll(() => variant.cleanup());

  const records = async (s: Subscription): Promise<TransactionRecord[]> =>
    (await h.client.call(listTransactionsOp, { checkout_id: s.checkoutId, limit: 100 }, as(s.user))).sort((a, b) => a.id - b.id);
  /** Waits for the subscription's `count`-th record and completes it. */
  const completeRecord = async (s: Subscription, count: number) => {
    const all = await eventually(async () => {
      const found = await records(s);
      expect(found).toHaveLength(count);
      return found;
    });
    await h.simulate(all[count - 1]!.transaction_uuid, "completed");
  };

  describe.skipIf(!!variant.skipReason)("two replicas", () => {
    it("charges each period of each subscription once while both replicas' schedulers race", async () => {
      const subs: Subscription[] = [];
      for (let i = 0; i < 4; i++) subs.push(await h.subscription());
      for (const period of [1, 2]) {
        h.clock.ms = Date.parse(period === 1 ? "2027-04-15T12:00:01.000Z" : "2027-05-15T12:00:01.000Z");
        for (const s of subs) await completeRecord(s, period + 1);
      }
      // Several passes of both schedulers later, nothing more was charged.
      await sleep(POLL_MS * 6);
      for (const s of subs) {
        expect((await records(s)).map((r) => r.transaction_status)).toEqual(["completed", "completed", "completed"]);
        expect([asked.get(`${s.checkoutId}-p1`), asked.get(`${s.checkoutId}-p2`), asked.get(`${s.checkoutId}-p3`)]).toEqual([1, 1, undefined]);
      }
    });

    it("after downtime charges each missed period once, one after another", async () => {
      h.clock.ms = Date.parse("2027-06-01T12:00:00.000Z");
      const s = await h.subscription();
      // Three periods pass with no scheduler looking (the clock jumps): July, August and September are due.
      h.clock.ms += 100 * DAY_MS;
      for (const count of [2, 3, 4]) await completeRecord(s, count);
      await sleep(POLL_MS * 6);
      expect(await records(s)).toHaveLength(4);
      expect([1, 2, 3, 4].map((p) => asked.get(`${s.checkoutId}-p${p}`))).toEqual([1, 1, 1, undefined]);
    });
  });
});
