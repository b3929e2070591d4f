import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;

type TxRecord = { id: number; transaction_uuid: string; transaction_status: string; transaction_date_time: string };

/**
 * The walk-through's renewals (docs/guide/walk-through.md) over HTTP (docs/api-notes.md, Subscriptions and renewals): a monthly subscription renewed
 * three times with the sandbox test clock, one renewal failing and recovering on its retry,
 * then cancelled; and the route's answers to bad input.
 */
describe.each(variants)("renewals through the gateway over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    merchant = await stack.merchant("Acme");
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = { "api-key": merchant.apiKey }) =>
    stack.app.inject({ method: "POST", url, payload, headers });
  const advance = async (uuid: string, to: string) => {
    const reply = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
    expect(reply.statusCode, reply.body).toBe(200);
    return (reply.json() as TxRecord[]).sort((a, b) => a.id - b.id);
  };
  const simulate = async (uuid: string, body: object) => expect((await post(`/api/sandbox/transfers/${uuid}/simulate`, body)).statusCode).toBe(200);
  const checkout = async (id: string) => (await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": merchant.apiKey } })).json();

  async function subscription(overrides: Record<string, unknown> = { is_subscription: true, plan_type: "monthly" }) {
    const { id, consumer } = await linkedCheckout(stack, merchant.apiKey, overrides);
    const started = await post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id });
    const uuid = started.json().transaction_uuid as string;
    return { id, consumer, uuid };
  }

  describe.skipIf(!!variant.skipReason)("walk-through", () => {
    it("renews a monthly subscription three times, recovers a failed renewal on its retry, then cancels", async () => {
      const { id, consumer, uuid } = await subscription();
      await simulate(uuid, { status: "completed" });
      const [first] = await advance(uuid, new Date().toISOString());
      const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
      await eventually(async () => expect(await checkout(id)).toMatchObject({ subscription_status: "active", current_period_start: due(0), next_charge_at: due(1) }));

      const renewal1 = (await advance(uuid, due(1)))[1]!;
      await simulate(renewal1.transaction_uuid, { status: "completed" });
      const renewal2 = (await advance(uuid, due(2)))[2]!;
      await simulate(renewal2.transaction_uuid, { status: "failed", failure_code: "R01" });
      // Retried RENEWAL_RETRY_DAYS[0] (3) days after the failure was learnt (the test clock stands at the due date).
      const retryAt = new Date(Date.parse(due(2)) + 3 * DAY_MS).toISOString();
      await eventually(async () => expect(await checkout(id)).toMatchObject({ subscription_status: "past_due", next_charge_at: retryAt }));
      const retry = (await advance(uuid, retryAt))[3]!;
      await simulate(retry.transaction_uuid, { status: "completed" });
      await eventually(async () => expect(await checkout(id)).toMatchObject({ subscription_status: "active", next_charge_at: due(3) }));
      const renewal3 = (await advance(uuid, due(3)))[4]!;
      await simulate(renewal3.transaction_uuid, { status: "completed" });

      const cancelled = await post("/api/merchants/manage_subscription/subscription_cancel/", { subscription_transaction_uuid: uuid }, { authorization: `Token ${consumer.token}` });
      expect(cancelled.statusCode).toBe(200);
      const records = await advance(uuid, due(6));
      expect(records.map((r) => r.transaction_status)).toEqual(["completed", "completed", "failed", "completed", "completed"]);
      expect(records.map((r) => r.transaction_date_time)).toEqual([due(0), due(1), due(2), retryAt, due(3)]);
      await eventually(async () =>
        expect(await checkout(id)).toMatchObject({ status: "paid", transfer: { transaction_uuid: uuid }, subscription_status: "cancelled", next_charge_at: null }),
      );
      const log = await stack.app.inject({ url: `/api/merchants/manage_subscription/get_subscription_details/?checkout_id=${id}`, headers: { authorization: `Token ${consumer.token}` } });
      expect((log.json() as TxRecord[]).map((r) => r.transaction_uuid).sort()).toEqual(records.map((r) => r.transaction_uuid).sort());
    });
  });

  describe.skipIf(!!variant.skipReason)("bad input", () => {
    it("answers 400 for a `to` that is not an ISO time, 404 for another merchant's record, 409 for a one-off payment", async () => {
      const { uuid } = await subscription();
      const bad = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to: "next month" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: "parameter_invalid", param: "to" } });
      const other = await stack.merchant("Globex");
      const foreign = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to: "2030-01-01T00:00:00Z" }, { "api-key": other.apiKey });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ error: { code: "transaction_not_found" } });
      const oneOff = await subscription({ is_subscription: false });
      const notSub = await post(`/api/sandbox/subscriptions/${oneOff.uuid}/advance`, { to: "2030-01-01T00:00:00Z" });
      expect(notSub.statusCode).toBe(409);
      expect(notSub.json()).toMatchObject({ error: { code: "not_a_subscription" } });
    });
  });
});

/** The events API (served by the webhooks service) in the order things happened, test clock or not. */
describe.each(await infraVariants())("events of test-clock renewals over $name", (variant) => {
  const world = withWebhooksStack(variant);

  it.skipIf(!!variant.skipReason)("dates a renewal's transaction.created when it happened, not at the clock's time", async () => {
    const { stack } = world;
    const { apiKey } = await stack.merchant("Clockwork");
    const post = (url: string, payload: object) => stack.app.inject({ method: "POST", url, payload, headers: { "api-key": apiKey } });
    const { id } = await linkedCheckout(stack, apiKey, { is_subscription: true, plan_type: "monthly" });
    const uuid = (await post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).json().transaction_uuid as string;
    expect((await post(`/api/sandbox/transfers/${uuid}/simulate`, { status: "completed" })).statusCode).toBe(200);
    const advance = async (to: string) => ((await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to })).json() as TxRecord[]).sort((a, b) => a.id - b.id);
    const [first] = await advance(new Date().toISOString());
    const before = Date.now();
    const renewal = (await advance(periodStart(first!.transaction_date_time, "monthly", 1)))[1]!;
    expect(Date.parse(renewal.transaction_date_time)).toBeGreaterThan(before + 20 * DAY_MS);
    const created = await eventually(async () => {
      const page = await stack.app.inject({ url: "/api/merchants/events?type=transaction.created&limit=10", headers: { "api-key": apiKey } });
      expect(page.statusCode, page.body).toBe(200);
      const found = (page.json().data as { created_at: string; data: { object: { transaction_uuid?: string } } }[]).find((e) => e.data.object.transaction_uuid === renewal.transaction_uuid);
      expect(found).toBeDefined();
      return found!;
    });
    expect(Date.parse(created.created_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });
});
