import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_MS = 86_400_000;

type TxRecord = { id: number; transaction_uuid: string; transaction_status: string; transaction_date_time: string; [k: string]: unknown };

/**
 * Issue 19 item 1 (docs/api-notes.md, Returns and blocked bank accounts): a completed transfer that the bank
 * sends back later (the sandbox's `failed` on a completed transfer) is `returned` on the record,
 * the checkout and the events, reaches the merchant's webhook, and refunds of it are refused or
 * stopped before any payout; a returned renewal is a failed renewal.
 */
describe.each(variants)("returns after settlement over $name", (variant) => {
  const world = withWebhooksStack(variant, {}, ["ledger"]);
  let merchant: { id: string; apiKey: string };
  let secret: string;
  beforeAll(async () => {
    if (variant.skipReason) return;
    merchant = await world.stack.merchant("Umbrella");
    const reply = await world.stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: world.receiver.url, enabled_events: ["transaction.*", "refund.*", "subscription.*"] }, headers: headers() });
    expect(reply.statusCode).toBe(200);
    secret = (reply.json() as { secret: string }).secret;
  });
  const headers = () => ({ "api-key": merchant.apiKey });
  const post = (url: string, payload: object, h: Record<string, string> = headers()) => world.stack.app.inject({ method: "POST", url, payload, headers: h });
  const simulate = (uuid: string, body: object) => post(`/api/sandbox/transfers/${uuid}/simulate`, body);
  const checkout = async (id: string) => (await world.stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: headers() })).json();
  const records = async (token: string) =>
    (await world.stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${token}` } })).json() as TxRecord[];
  const delivered = (type: string, uuid: string) =>
    world.receiver.received
      .map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: { object: Record<string, unknown> } })
      .filter((e) => e.type === type && (e.data.object["transaction_uuid"] === uuid || e.data.object["charge_transaction_uuid"] === uuid));

  /** A settled payment, and a refund of it approved and handed to the provider (`processing`). */
  async function refundOnItsWay() {
    const p = await payment(world.stack, merchant.apiKey, "completed");
    const refunds = refundClient(world.stack);
    const refund = await requested(world.stack, p);
    expect((await refunds.decide(headers(), refund.id, "Approved")).statusCode).toBe(200);
    const payout = (await refunds.initiate(headers(), refund.id)).json().refund as { refund_transaction_id: string };
    return { p, refunds, refund, payout };
  }

  describe.skipIf(!!variant.skipReason)("a one-off payment", () => {
    it("turns a late R10 on a completed payment into a return everywhere, stops the approved refund and refuses new ones", async () => {
      const p = await payment(world.stack, merchant.apiKey, "completed");
      await eventually(async () => expect((await checkout(p.checkoutId)).status).toBe("paid"));
      const refunds = refundClient(world.stack);
      const refund = await requested(world.stack, { ...p, uuid: p.uuid });
      expect((await refunds.decide(headers(), refund.id, "Approved")).statusCode).toBe(200);

      const returned = await simulate(p.uuid, { status: "failed", failure_code: "R10" });
      expect(returned.statusCode, returned.body).toBe(200);
      expect(returned.json()).toMatchObject({
        transaction_uuid: p.uuid,
        transaction_status: "returned",
        error: "R10",
        failure_code: "R10",
        failure_reason: expect.stringContaining("not authorized"),
        returned_at: expect.stringMatching(ISO),
      });
      const [record] = (await records(p.consumer.token)).filter((r) => r.transaction_uuid === p.uuid);
      expect(record).toMatchObject({ transaction_status: "returned", failure_code: "R10" });

      await eventually(async () => {
        const c = await checkout(p.checkoutId);
        expect(c.status).toBe("returned");
        expect(c.transfer).toMatchObject({ transaction_uuid: p.uuid, status: "returned" });
      });
      const events = (await world.stack.app.inject({ url: "/api/merchants/events?type=transaction.returned", headers: headers() })).json() as { data: { id: string; data: { object: Record<string, unknown> } }[] };
      const event = events.data.find((e) => e.data.object["transaction_uuid"] === p.uuid);
      expect(event?.data.object).toMatchObject({ transaction_status: "returned", failure_code: "R10" });
      await eventually(async () => expect(delivered("transaction.returned", p.uuid)).toHaveLength(1));

      // The approved refund was not paid out: stopped, with the reason.
      await eventually(async () => {
        const [r] = (await refunds.list({ authorization: p.consumer.token })).json() as { id: string; status: string; failure_code: string | null }[];
        expect(r).toMatchObject({ id: refund.id, status: "failed", failure_code: "transaction_returned" });
      });
      await eventually(async () => expect(delivered("refund.failed", p.uuid)).toHaveLength(1));
      // Neither a new request nor paying the stopped one out moves money that the bank took back.
      const again = await refunds.request({ authorization: `Token ${p.consumer.token}` }, { transaction_uuid: p.uuid });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe("transaction_returned");
      const initiate = await refunds.initiate(headers(), refund.id);
      expect(initiate.statusCode).toBe(409);
      expect(initiate.json().error.code).toBe("transaction_returned");

      // The return is applied once: a repeat changes nothing and publishes nothing more.
      expect((await simulate(p.uuid, { status: "failed", failure_code: "R10" })).json()).toMatchObject({ transaction_status: "returned" });
      expect((await simulate(p.uuid, { status: "completed" })).json()).toMatchObject({ transaction_status: "returned" });
      const after = (await world.stack.app.inject({ url: "/api/merchants/events?type=transaction.returned", headers: headers() })).json() as { data: { data: { object: Record<string, unknown> } }[] };
      expect(after.data.filter((e) => e.data.object["transaction_uuid"] === p.uuid)).toHaveLength(1);
    });

    it("flags a refund paid out before its payment came back: over_returned_at, one refund.over_returned, both movements in the books", async () => {
      const { p, refunds, refund, payout } = await refundOnItsWay();
      expect((await refunds.simulate(merchant.apiKey, payout.refund_transaction_id, "completed")).statusCode).toBe(200);
      await eventually(async () => {
        const r = (await world.stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers: headers() })).json();
        expect(r).toMatchObject({ status: "completed", over_returned_at: null });
      });

      expect((await simulate(p.uuid, { status: "failed", failure_code: "R10" })).json()).toMatchObject({ transaction_status: "returned" });
      await eventually(async () => expect(delivered("refund.over_returned", p.uuid)).toHaveLength(1));
      const flagged = (await world.stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers: headers() })).json();
      expect(flagged).toMatchObject({ status: "completed", over_returned_at: expect.stringMatching(ISO) });
      expect(delivered("refund.over_returned", p.uuid)[0]?.data.object).toMatchObject({ id: refund.id, over_returned_at: flagged.over_returned_at });
      // The books show the money going out twice: the refund paid and the debit returned.
      await eventually(async () => {
        const rows = (await world.stack.app.inject({ url: "/api/merchants/balance_transactions?limit=100", headers: headers() })).json().data as { type: string; source: string }[];
        expect(rows.filter((r) => r.source === p.uuid || r.source === refund.id).map((r) => r.type).sort()).toEqual(["debit", "refund", "return"]);
      });
      // The same return again (a redelivery, a second report) marks nothing twice.
      await simulate(p.uuid, { status: "failed", failure_code: "R10" });
      const events = (await world.stack.app.inject({ url: "/api/merchants/events?type=refund.over_returned", headers: headers() })).json() as { data: { data: { object: { id: string } } }[] };
      expect(events.data.filter((e) => e.data.object.id === refund.id)).toHaveLength(1);
    });

    it("flags a refund whose payout completes after its payment came back", async () => {
      const { p, refunds, refund, payout } = await refundOnItsWay();
      // The return arrives while the refund's payout is with the provider: the refund is left to it.
      await simulate(p.uuid, { status: "failed", failure_code: "R10" });
      await eventually(async () => expect(delivered("transaction.returned", p.uuid)).toHaveLength(1));
      const during = (await world.stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers: headers() })).json();
      expect(during).toMatchObject({ status: "processing", over_returned_at: null });
      expect((await refunds.simulate(merchant.apiKey, payout.refund_transaction_id, "completed")).statusCode).toBe(200);
      await eventually(async () => expect(delivered("refund.over_returned", p.uuid)).toHaveLength(1));
      expect((await world.stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers: headers() })).json()).toMatchObject({
        status: "completed",
        over_returned_at: expect.stringMatching(ISO),
      });
    });

    it("still fails a pending transfer as before: failed, not returned", async () => {
      const p = await payment(world.stack, merchant.apiKey, "failed");
      const [record] = (await records(p.consumer.token)).filter((r) => r.transaction_uuid === p.uuid);
      expect(record).toMatchObject({ transaction_status: "failed", failure_code: "R01", failure_reason: expect.stringContaining("Insufficient funds") });
      expect(record).not.toHaveProperty("returned_at");
      await eventually(async () => expect((await checkout(p.checkoutId)).status).toBe("failed"));
    });
  });

  describe.skipIf(!!variant.skipReason)("a subscription's renewal", () => {
    async function renewed() {
      const { id, consumer } = await linkedCheckout(world.stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly" });
      const uuid = (await post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).json().transaction_uuid as string;
      expect((await simulate(uuid, { status: "completed" })).statusCode).toBe(200);
      const advance = async (to: string) => {
        const reply = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
        expect(reply.statusCode, reply.body).toBe(200);
        return (reply.json() as TxRecord[]).sort((a, b) => a.id - b.id);
      };
      const [first] = await advance(new Date().toISOString());
      const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
      const renewal = (await advance(due(1)))[1]!;
      expect((await simulate(renewal.transaction_uuid, { status: "completed" })).statusCode).toBe(200);
      await eventually(async () => expect(await checkout(id)).toMatchObject({ subscription_status: "active", next_charge_at: due(2) }));
      return { id, consumer, uuid, renewal, due, advance };
    }

    it("stops the subscription on an unauthorized return (R10) of a completed renewal: unpaid, its account blocked; the checkout stays paid", async () => {
      const s = await renewed();
      const returned = await simulate(s.renewal.transaction_uuid, { status: "failed", failure_code: "R10" });
      expect(returned.json()).toMatchObject({ transaction_status: "returned", failure_code: "R10" });
      // R10 blocks the bank account (docs/api-notes.md, Returns and blocked bank accounts): its subscriptions become unpaid until another is linked.
      await eventually(async () => expect(await checkout(s.id)).toMatchObject({ status: "paid", subscription_status: "unpaid", next_charge_at: null }));
      await eventually(async () => expect(delivered("subscription.unpaid", s.renewal.transaction_uuid)).toHaveLength(1));
      expect(delivered("transaction.returned", s.renewal.transaction_uuid)).toHaveLength(1);
      // Nothing more is charged.
      expect(await s.advance(s.due(4))).toHaveLength(2);
    });

    it("charges the returned period again on R01, dated from when the return was learnt", async () => {
      const s = await renewed();
      // The test clock moves on 10 days past the renewal's due date before the bank's return.
      const learnt = Date.parse(s.due(1)) + 10 * DAY_MS;
      expect(await s.advance(new Date(learnt).toISOString())).toHaveLength(2);
      await simulate(s.renewal.transaction_uuid, { status: "failed", failure_code: "R01" });
      // The first retry is RENEWAL_RETRY_DAYS[0] (3) days after the return was learnt, not after the period's due date.
      const retryAt = new Date(learnt + 3 * DAY_MS).toISOString();
      await eventually(async () => expect(await checkout(s.id)).toMatchObject({ subscription_status: "past_due", next_charge_at: retryAt }));
      await eventually(async () => expect(delivered("subscription.past_due", s.renewal.transaction_uuid)).toHaveLength(1));
      const charged = await s.advance(retryAt);
      expect(charged).toHaveLength(3);
      expect(charged[2]).toMatchObject({ transaction_status: "pending", description: expect.stringContaining("renewal 1 (retry 1)") });
      await simulate(charged[2]!.transaction_uuid, { status: "completed" });
      await eventually(async () => expect(await checkout(s.id)).toMatchObject({ subscription_status: "active", next_charge_at: s.due(2) }));
    });
  });
});
