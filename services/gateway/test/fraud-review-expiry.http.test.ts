import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { FRAUD_TEST_ENV, fraudClient, HELD_AMOUNTS, withFraudStack } from "./support/fraud-stack.ts";

const variants = await infraVariants();

/** A held debit nobody decides within REVIEW_EXPIRES_HOURS is cancelled by the review sweep (docs/decisions/0010-fraud-monitoring.md). */
describe.each(variants)("fraud review expiry over $name", (variant) => {
  // About 2 seconds: the sweep (every 200 ms) expires it soon after.
  const world = withFraudStack(variant, { ...FRAUD_TEST_ENV, REVIEW_EXPIRES_HOURS: "0.0006" });
  const api = fraudClient(world);

  it.skipIf(!!variant.skipReason)("cancels a held debit when its review expires: review.closed expired, the record cancelled, the checkout failed; deciding afterwards is 409", async () => {
    const linked = await api.linked(HELD_AMOUNTS);
    const body = (await api.charge(linked.id)).json() as { transaction_uuid: string; review_id: string };
    expect(body).toMatchObject({ transaction_status: "in_review" });
    await eventually(async () => expect(await api.review(body.review_id)).toMatchObject({ status: "expired", closed_by: { type: "system", id: "review_expiry" } }));
    await eventually(async () => expect((await api.records(linked.consumer))[0]).toMatchObject({ transaction_status: "cancelled", failure_code: "review_expired" }));
    await eventually(async () => expect(await api.checkout(linked.id)).toMatchObject({ status: "failed", transfer: { status: "cancelled" } }));
    for (const decision of ["approve", "cancel"] as const) {
      const late = await api.decide(body.review_id, decision);
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe("review_closed");
    }
    expect(world.transferCalls.get(body.transaction_uuid)).toBeUndefined();
    await eventually(async () => expect((await api.events("review.closed")).filter((o) => o["id"] === body.review_id)).toEqual([expect.objectContaining({ status: "expired" })]));
  });
});
