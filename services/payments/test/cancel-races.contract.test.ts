import { AppError, cancelSubscriptionByTransactionOp } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { as } from "./support/payments-harness.ts";
import { startRenewals, withCreateTransfer, type RenewalsHarness } from "./support/renewals-harness.ts";

const variants = await infraVariants();
const ROUNDS = 50;

/**
 * Issue 20 item 5: a consumer's cancel racing the renewal charge of the same subscription, 50
 * rounds. A cancel that answered success is never followed by a debit request to the provider
 * for that subscription; a cancel that could not make its write answers an error (409, retried
 * here as a consumer would), never "unsubscribed".
 */
describe.each(variants)("cancel racing a renewal over $name", (variant) => {
  let h: RenewalsHarness;
  /** Real times at which each renewal's transfer was asked of the provider, by idempotency key. */
  const asked = new Map<string, number>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRenewals(variant, {
      startAt: "2027-01-31T10:00:00.000Z",
      wrapTransfers: withCreateTransfer(async (input, inner) => {
        // The way to the provider takes a moment (a slow network): the request lands after it.
        await new Promise((r) => setTimeout(r, Math.random() * 30));
        asked.set(input.idempotencyKey, Date.now());
        return inner.createTransfer(input);
      }),
    });
  }, 60_000);
  afterAll(() => variant.cleanup());

  it.skipIf(!!variant.skipReason)(`never debits after a cancel that answered success (${ROUNDS} rounds)`, { timeout: 240_000 }, async () => {
    const outcomes = { cancelledFirst: 0, chargedFirst: 0, refusedWhileSending: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const s = await h.subscription();
      const cancel = async (): Promise<number> => {
        for (;;) {
          try {
            await h.client.call(cancelSubscriptionByTransactionOp, { subscription_transaction_uuid: s.uuid }, as(s.user));
            return Date.now();
          } catch (err) {
            // Any refusal must be the "retry shortly" one, never a silent loss.
            expect(err instanceof AppError ? err.code : String(err)).toBe("transfer_in_progress");
            outcomes.refusedWhileSending++;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      };
      const charge = h.advance(s, "2027-03-03T10:00:00.000Z").catch((err: unknown) => err);
      // Spread the cancel over the charge's path (longer over the broker: more hops).
      await new Promise((r) => setTimeout(r, Math.random() * (variant.name.startsWith("RabbitMQ") ? 120 : 20)));
      const cancelledAt = await cancel();
      await charge;
      const renewal = asked.get(`${s.checkoutId}-p1`);
      if (renewal === undefined) outcomes.cancelledFirst++;
      else {
        outcomes.chargedFirst++;
        expect(renewal, `round ${round}: a renewal was asked ${renewal - cancelledAt} ms after the cancel answered`).toBeLessThanOrEqual(cancelledAt);
      }
      // Nothing more is charged once cancelled, however far the clock moves.
      await h.advance(s, "2027-12-31T10:00:00.000Z").catch(() => undefined);
      expect([...asked.keys()].filter((k) => k.startsWith(`${s.checkoutId}-p`) && k !== `${s.checkoutId}-p1`)).toEqual([]);
      await eventually(async () => expect(await h.checkout(s)).toMatchObject({ subscription_status: "cancelled" }));
    }
    expect(outcomes.cancelledFirst + outcomes.chargedFirst).toBe(ROUNDS);
    console.log(`cancel races over ${variant.name}: ${JSON.stringify(outcomes)}`);
  });
});
