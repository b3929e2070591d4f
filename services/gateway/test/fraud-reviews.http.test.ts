import { decideReviewOp } from "@payrail/contracts";
import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { FRAUD_TEST_ENV, fraudClient, HELD_AMOUNTS, withFraudStack } from "./support/fraud-stack.ts";

const variants = await infraVariants();

/**
 * Fraud monitoring (docs/decisions/0010-fraud-monitoring.md): a first debit a rule flags is
 * held before the provider is called; the merchant approves (one transfer) or cancels it.
 */
describe.each(variants)("fraud reviews over $name", (variant) => {
  const world = withFraudStack(variant, FRAUD_TEST_ENV);
  const api = fraudClient(world);

  /** A linked $600 checkout whose first debit was held: its ids. */
  async function held() {
    const linked = await api.linked(HELD_AMOUNTS);
    const reply = await api.charge(linked.id);
    expect(reply.statusCode, reply.body).toBe(200);
    const body = reply.json() as { transaction_uuid: string; transaction_id: string; transaction_status?: string; review_id?: string };
    expect(body).toMatchObject({ message: "Transaction held for review", transaction_id: "", transaction_status: "in_review", review_id: expect.stringMatching(/^rev_[0-9a-f]{32}$/) });
    return { ...linked, uuid: body.transaction_uuid, reviewId: body.review_id! };
  }

  describe.skipIf(!!variant.skipReason)("screening", () => {
    it("holds a flagged first debit before the provider is called: in_review with review_id, review.opened, no transfer", async () => {
      const h = await held();
      expect(world.transferCalls.get(h.uuid)).toBeUndefined();
      const [record] = await api.records(h.consumer);
      expect(record).toMatchObject({ transaction_uuid: h.uuid, transaction_status: "in_review", review_id: h.reviewId, processor_transaction_id: "", amount: 600 });
      const review = await api.review(h.reviewId);
      expect(review).toMatchObject({ status: "open", checkout_id: h.id, transaction_uuid: h.uuid, kind: "first_charge", amount: 600, closed_by: null });
      expect(review.rules).toEqual([expect.objectContaining({ rule: "new_account_amount", version: 1, facts: expect.objectContaining({ amount_cents: 60_000, prior_debits: 0 }) })]);
      // Asked again, the same hold; still no transfer, the checkout still waits.
      expect((await api.charge(h.id)).json()).toMatchObject({ transaction_uuid: h.uuid, transaction_status: "in_review", review_id: h.reviewId });
      expect(world.transferCalls.get(h.uuid)).toBeUndefined();
      expect(await api.checkout(h.id)).toMatchObject({ status: "payment_method_saved", transfer: null });
      await eventually(async () => expect((await api.events("review.opened")).filter((o) => o["id"] === h.reviewId)).toEqual([expect.objectContaining({ status: "open", checkout_id: h.id })]));
    });

    it("does not hold an ordinary debit: it is sent at once", async () => {
      const linked = await api.linked();
      const reply = await api.charge(linked.id);
      expect(reply.statusCode, reply.body).toBe(200);
      const body = reply.json();
      expect(body).toEqual({ message: "Transaction executed", transaction_uuid: expect.any(String), transaction_id: expect.stringMatching(/.+/) });
      expect(world.transferCalls.get(body.transaction_uuid)).toBe(1);
      const [record] = await api.records(linked.consumer);
      expect(record).toMatchObject({ transaction_status: "pending" });
      expect(record).not.toHaveProperty("review_id");
    });
  });

  /** The merchant's audit entries of `action` on review `reviewId`. */
  const auditEntries = async (action: string, reviewId: string) => {
    const reply = await world.stack.app.inject({ url: `/api/merchants/audit_log?limit=100&action=${action}`, headers: { "api-key": world.merchant.apiKey } });
    expect(reply.statusCode, reply.body).toBe(200);
    return (reply.json().data as { object: { id: string } }[]).filter((e) => e.object.id === reviewId);
  };

  describe.skipIf(!!variant.skipReason)("decisions", () => {
    it("approves a held debit: one transfer, the record pending with it, the checkout follows, review.closed approved", async () => {
      const h = await held();
      const reply = await api.decide(h.reviewId, "approve");
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ id: h.reviewId, status: "approved", closed_by: { type: "api_key" } });
      // The approval's own call sends the debit, or the review sweep (every 200 ms here) does when
      // it took the checkout's transfer lease first; the reply then shows the review as it stands.
      // Either way one transfer, and the record follows it.
      const released = { transaction_uuid: h.uuid, transaction_status: "pending", review_id: h.reviewId, processor_transaction_id: expect.stringMatching(/.+/) };
      await eventually(async () => expect((await api.records(h.consumer))[0]).toMatchObject(released));
      const [record] = await api.records(h.consumer);
      expect(world.transferCalls.get(h.uuid)).toBe(1);
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ status: "transfer_pending" }));
      // Get Processor Token now answers the transfer.
      expect((await api.charge(h.id)).json()).toEqual({ message: "Transaction executed", transaction_uuid: h.uuid, transaction_id: record!["processor_transaction_id"] });
      await eventually(async () => expect((await api.events("review.closed")).filter((o) => o["id"] === h.reviewId)).toEqual([expect.objectContaining({ status: "approved" })]));
      // Twice is a conflict, and sends nothing more.
      const again = await api.decide(h.reviewId, "approve");
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ type: "conflict_error", code: "review_closed" });
      expect((await api.decide(h.reviewId, "cancel")).json().error.code).toBe("review_closed");
      expect(world.transferCalls.get(h.uuid)).toBe(1);
    });

    it("sends one transfer when 20 approvals race: one answers 200, the others 409 review_closed", async () => {
      const h = await held();
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.decide(h.reviewId, "approve")));
      const codes = replies.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, ...Array<number>(19).fill(409)]);
      expect(replies.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === "review_closed")).toBe(true);
      // Sent by the winning approval or by the review sweep (see above): once, and the record follows.
      await eventually(async () => expect((await api.records(h.consumer)).filter((r) => r["transaction_uuid"] === h.uuid)).toEqual([expect.objectContaining({ transaction_status: "pending" })]));
      expect(world.transferCalls.get(h.uuid)).toBe(1);
      // One decision, one audit entry: the 19 losing writes stored none.
      await eventually(async () => expect(await auditEntries("review.approved", h.reviewId)).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await auditEntries("review.approved", h.reviewId)).toEqual([expect.objectContaining({ actor: { type: "api_key", id: world.merchant.apiKey.slice(0, 16) } })]);
    });

    it("cancels a held debit: no transfer, the record cancelled, the checkout failed, review.closed cancelled; a later approval is 409", async () => {
      const h = await held();
      const reply = await api.decide(h.reviewId, "cancel");
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ status: "cancelled", closed_at: expect.any(String) });
      const [record] = await api.records(h.consumer);
      expect(record).toMatchObject({ transaction_status: "cancelled", failure_code: "review_cancelled", review_id: h.reviewId });
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ status: "failed", transfer: { status: "cancelled" } }));
      expect((await api.decide(h.reviewId, "approve")).json().error.code).toBe("review_closed");
      await eventually(async () => expect(await auditEntries("review.cancelled", h.reviewId)).toHaveLength(1));
      const charge = await api.charge(h.id);
      expect(charge.statusCode).toBe(409);
      expect(charge.json().error.code).toBe("checkout_closed");
      expect(world.transferCalls.get(h.uuid)).toBeUndefined();
      await eventually(async () => expect((await api.events("review.closed")).filter((o) => o["id"] === h.reviewId)).toEqual([expect.objectContaining({ status: "cancelled" })]));
    });

    it("finishes an approval whose provider call failed: the review sweep sends the debit, once", async () => {
      const h = await held();
      world.failNext.add(h.uuid);
      const reply = await api.decide(h.reviewId, "approve");
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ status: "approved" });
      // The provider refused the first call: no transfer yet, the record still held.
      expect((await api.records(h.consumer))[0]).toMatchObject({ transaction_status: "in_review" });
      await eventually(async () => expect((await api.records(h.consumer))[0]).toMatchObject({ transaction_status: "pending", processor_transaction_id: expect.stringMatching(/.+/) }));
      expect(world.transferCalls.get(h.uuid)).toBe(2);
    });

    it("refuses a dashboard viewer's decision, and another merchant's or an unknown review", async () => {
      const h = await held();
      const viewer = { kind: "merchant" as const, merchantId: world.merchant.id, keyPrefix: "session", livemode: false, userId: "usr_viewer", role: "viewer" as const };
      await expect(world.stack.transport.call(decideReviewOp, { review_id: h.reviewId, decision: "approve" }, { requestId: "req_viewer", principal: viewer })).rejects.toMatchObject({
        code: "permission_denied",
      });
      const other = await world.stack.merchant("Other Shop");
      const foreign = await world.stack.app.inject({ method: "POST", url: `/api/merchants/reviews/${h.reviewId}/approve`, headers: { "api-key": other.apiKey } });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe("review_not_found");
      expect((await api.decide("rev_0123456789abcdef0123456789abcdef", "cancel")).statusCode).toBe(404);
      expect((await api.review(h.reviewId)).status).toBe("open");
    });
  });

  describe.skipIf(!!variant.skipReason)("renewals", () => {
    const post = async (url: string, payload: object) => {
      const reply = await api.inject("POST", url, payload);
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json();
    };
    type Tx = { transaction_uuid: string; transaction_status: string; transaction_date_time: string; review_id?: string; id: number };
    const advance = async (uuid: string, to: string) => ((await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to })) as Tx[]).sort((a, b) => a.id - b.id);

    /** A monthly subscription whose first charge settled, its first renewal due and held: its ids. */
    async function heldRenewal() {
      const linked = await api.linked({ is_subscription: true, plan_type: "monthly" });
      const uuid = (await api.charge(linked.id)).json().transaction_uuid as string;
      await post(`/api/sandbox/transfers/${uuid}/simulate`, { status: "completed" });
      const [first] = await advance(uuid, new Date().toISOString());
      const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
      await eventually(async () => expect(await api.checkout(linked.id)).toMatchObject({ subscription_status: "active", next_charge_at: due(1) }));
      const [, renewal] = await advance(uuid, due(1));
      expect(renewal).toMatchObject({ transaction_status: "in_review", review_id: expect.stringMatching(/^rev_/) });
      expect(world.transferCalls.get(`${linked.id}-p1`)).toBeUndefined();
      return { ...linked, uuid, due, renewal: renewal!, reviewId: renewal!.review_id! };
    }

    it("holds a flagged renewal unsent; approved, it is sent once and the subscription renews", async () => {
      const h = await heldRenewal();
      const review = await api.review(h.reviewId);
      expect(review).toMatchObject({ kind: "renewal", status: "open", transaction_uuid: h.renewal.transaction_uuid });
      expect(review.rules.map((r) => r.rule)).toEqual(["phone_velocity"]);
      // The clock moving on charges nothing more while it is held.
      expect(await advance(h.uuid, h.due(2))).toHaveLength(2);
      expect((await api.decide(h.reviewId, "approve")).statusCode).toBe(200);
      expect(world.transferCalls.get(`${h.id}-p1`)).toBe(1);
      const records = await advance(h.uuid, h.due(2));
      expect(records).toHaveLength(2);
      expect(records[1]).toMatchObject({ transaction_uuid: h.renewal.transaction_uuid, transaction_status: "pending", review_id: h.reviewId });
      await post(`/api/sandbox/transfers/${h.renewal.transaction_uuid}/simulate`, { status: "completed" });
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ subscription_status: "active", next_charge_at: h.due(2) }));
      expect(world.transferCalls.get(`${h.id}-p1`)).toBe(1);
    });

    it("cancelling a held renewal sends nothing and ends the subscription", async () => {
      const h = await heldRenewal();
      expect((await api.decide(h.reviewId, "cancel")).json()).toMatchObject({ status: "cancelled" });
      const records = await advance(h.uuid, h.due(1));
      expect(records[1]).toMatchObject({ transaction_uuid: h.renewal.transaction_uuid, transaction_status: "cancelled", failure_code: "review_cancelled" });
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ subscription_status: "cancelled", next_charge_at: null }));
      expect(world.transferCalls.get(`${h.id}-p1`)).toBeUndefined();
      expect(await advance(h.uuid, h.due(3))).toHaveLength(2);
    });

    it("drops a held renewal the consumer cancelled before the merchant approved it: nothing is sent, its record is cancelled", async () => {
      const h = await heldRenewal();
      const cancelled = await world.stack.app.inject({
        method: "POST",
        url: "/api/merchants/manage_subscription/subscription_cancel/",
        payload: { subscription_transaction_uuid: h.uuid },
        headers: { authorization: `Token ${h.consumer.token}` },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect((await api.decide(h.reviewId, "approve")).json()).toMatchObject({ status: "approved" });
      await eventually(async () => expect((await api.records(h.consumer)).find((r) => r["transaction_uuid"] === h.renewal.transaction_uuid)).toMatchObject({ transaction_status: "cancelled" }));
      expect(world.transferCalls.get(`${h.id}-p1`)).toBeUndefined();
      await eventually(async () => expect(await api.checkout(h.id)).toMatchObject({ subscription_status: "cancelled" }));
    });
  });

  describe.skipIf(!!variant.skipReason)("lists and evidence", () => {
    it("lists reviews newest first by status, in cursor pages", async () => {
      const a = await held();
      const b = await held();
      const list = async (query: string) => {
        const reply = await api.inject("GET", `/api/merchants/reviews?${query}`);
        expect(reply.statusCode, reply.body).toBe(200);
        return reply.json() as { data: { id: string; status: string }[]; has_more: boolean };
      };
      const first = await list("status=open&limit=1");
      expect(first).toEqual({ data: [expect.objectContaining({ id: b.reviewId })], has_more: true });
      const second = await list(`status=open&limit=1&starting_after=${b.reviewId}`);
      expect(second.data[0]!.id).toBe(a.reviewId);
      expect((await list("status=approved")).data.every((r) => r.status === "approved")).toBe(true);
      expect((await api.inject("GET", "/api/merchants/reviews?status=maybe")).statusCode).toBe(400);
      expect((await api.inject("GET", "/api/merchants/reviews?starting_after=nope")).statusCode).toBe(400);
    });

    it("gives the evidence: the rules in force with versions and thresholds, every review, monthly return rates, the annual reviews", async () => {
      const h = await held();
      const recorded = await api.inject("POST", "/api/merchants/compliance/annual_reviews", { notes: "Rules reviewed; limits kept." });
      expect(recorded.statusCode, recorded.body).toBe(200);
      expect(recorded.json()).toMatchObject({ id: expect.stringMatching(/^arv_/), notes: "Rules reviewed; limits kept.", reviewed_by: { type: "api_key" } });
      expect((await api.inject("POST", "/api/merchants/compliance/annual_reviews", { notes: "  " })).statusCode).toBe(400);
      const reply = await api.inject("GET", "/api/merchants/compliance/fraud_monitoring");
      expect(reply.statusCode, reply.body).toBe(200);
      const evidence = reply.json();
      expect(evidence.rules_in_force).toMatchObject({ until: null, review_expires_hours: 72 });
      expect(evidence.rules_in_force.rules.map((r: { id: string }) => r.id)).toEqual(["account_velocity", "phone_velocity", "amount_outlier", "new_account_amount", "phone_accounts", "account_returns"]);
      expect(evidence.rules_in_force.rules.find((r: { id: string }) => r.id === "new_account_amount")).toMatchObject({ version: 1, thresholds: { FRAUD_NEW_ACCOUNT_LIMIT: 50_000, FRAUD_NEW_ACCOUNT_MINUTES: 60 } });
      expect(evidence.reviews.map((r: { id: string }) => r.id)).toContain(h.reviewId);
      expect(evidence.return_rates).toHaveLength(12);
      expect(evidence.return_rates[11]).toMatchObject({ month: new Date().toISOString().slice(0, 7), debits: expect.any(Number), returns: 0, rate: 0 });
      expect(evidence.annual_reviews).toEqual([expect.objectContaining({ notes: "Rules reviewed; limits kept." })]);
    });
  });
});
