import { setTimeout as sleep } from "node:timers/promises";
import { until } from "../../../test/support/until.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { codeOf } from "./support/payments-harness.ts";
import { startRenewals, withCreateTransfer, type RenewalsHarness } from "./support/renewals-harness.ts";

/*
 * The renewal charge's lease (2 s here) is renewed by a heartbeat while its charger works: a
 * provider call three times longer than the lease must not let another charger (the test clock
 * advanced again, a scheduler of another replica) take the charge over and ask the provider a
 * second time.
 */

const variants = await infraVariants();
/** Long enough for renewals through a busy FerretDB (a write may take hundreds of ms there). */
const LEASE_MS = 2_000;
const SLOW_TRANSFER_MS = 3 * LEASE_MS;

describe.each(variants)("the renewal lease's heartbeat over $name", (variant) => {
  /** Renewal transfers asked for, by idempotency key. */
  const asked = new Map<string, number>();
  let slow = false;
  let h: RenewalsHarness;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRenewals(variant, {
      startAt: "2027-01-31T10:00:00.000Z",
      leaseMs: LEASE_MS,
      wrapTransfers: withCreateTransfer(async (input, inner) => {
        if (input.idempotencyKey.includes("-p")) {
          asked.set(input.idempotencyKey, (asked.get(input.idempotencyKey) ?? 0) + 1);
          if (slow) await sleep(SLOW_TRANSFER_MS);
        }
        return inner.createTransfer(input);
      }),
    });
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("a slow provider", () => {
    it("keeps the renewal lease through a transfer call three leases long: no second charger, one transfer", async () => {
      const s = await h.subscription();
      const due = "2027-02-28T10:00:00.000Z";
      slow = true;
      // Payments' clock runs with real time meanwhile, so an unrenewed lease would run out.
      const ticker = setInterval(() => (h.clock.ms += 50), 50);
      try {
        const first = h.advance(s, due);
        let settled = false;
        void first.finally(() => (settled = true)).catch(() => undefined);
        const others: string[] = [];
        // The slow charge at the provider, so the calls below come while it works.
        await until("the slow charge to reach the provider", () => asked.has(`${s.checkoutId}-p1`));
        while (!settled) {
          const answer = await codeOf(h.advance(s, due));
          if (answer === "resolved") break;
          others.push(answer);
          await sleep(250); // a caller's pace while the slow charge works
        }
        const records = await first;
        expect(others.length).toBeGreaterThanOrEqual(10);
        expect(new Set(others)).toEqual(new Set(["transfer_in_progress"]));
        expect(records.filter((r) => r.transaction_uuid !== s.uuid)).toHaveLength(1);
        expect(asked.get(`${s.checkoutId}-p1`)).toBe(1);
      } finally {
        clearInterval(ticker);
        slow = false;
      }
    }, 20_000);
  });
});
