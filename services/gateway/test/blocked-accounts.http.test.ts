import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { consumerToken, consumerTokensAt } from "./support/bank-linking.ts";
import { linkedCheckout, type LinkedCheckout } from "./support/payment-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();

type TxRecord = { id: number; checkout_id: number; transaction_uuid: string; transaction_status: string; transaction_date_time: string };
type Merchant = { id: string; apiKey: string };
type Consumer = LinkedCheckout["consumer"];
type EventObject = Record<string, unknown>;

/**
 * Issue 20 item 3 (docs/api-notes.md, Returns and blocked bank accounts): a return with R02/R03/R04 or R05/R07/R10/R29
 * blocks the bank account, recognised by the transfer provider's fingerprint whichever
 * checkout, merchant or link it comes through: no debit is made from it again, subscriptions
 * on it become `unpaid`, and each merchant concerned gets payment_method.blocked.
 */
describe.each(variants)("blocked bank accounts over $name", (variant) => {
  const world = withWebhooksStack(variant);
  let first: Merchant;
  let second: Merchant;
  beforeAll(async () => {
    if (variant.skipReason) return;
    first = await world.stack.merchant("Initech");
    second = await world.stack.merchant("Globex");
  });
  const post = (m: Merchant, url: string, payload: object) => world.stack.app.inject({ method: "POST", url, payload, headers: { "api-key": m.apiKey } });
  const checkout = async (m: Merchant, id: string) => (await world.stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": m.apiKey } })).json();
  const charge = (m: Merchant, checkoutId: string) => post(m, "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: checkoutId });
  const simulate = async (m: Merchant, uuid: string, body: object) => {
    const reply = await post(m, `/api/sandbox/transfers/${uuid}/simulate`, body);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json() as TxRecord;
  };
  const advance = async (m: Merchant, uuid: string, to: string) => {
    const reply = await post(m, `/api/sandbox/subscriptions/${uuid}/advance`, { to });
    expect(reply.statusCode, reply.body).toBe(200);
    return (reply.json() as TxRecord[]).sort((a, b) => a.id - b.id);
  };
  const events = async (m: Merchant, type: string) =>
    ((await world.stack.app.inject({ url: `/api/merchants/events?type=${type}`, headers: { "api-key": m.apiKey } })).json() as { data: { data: { object: EventObject } }[] }).data.map(
      (e) => e.data.object,
    );
  const records = async (c: Consumer) =>
    (await world.stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${c.token}` } })).json() as TxRecord[];

  /** A monthly subscription of `m` on `consumer`'s account, its first charge settled: `active`, first renewal scheduled. */
  async function subscription(m: Merchant, consumer?: Consumer, account = 0) {
    const linked = await linkedCheckout(world.stack, m.apiKey, { is_subscription: true, plan_type: "monthly" }, { ...(consumer ? { consumer } : {}), account });
    const started = await charge(m, linked.id);
    expect(started.statusCode, started.body).toBe(200);
    const uuid = started.json().transaction_uuid as string;
    await simulate(m, uuid, { status: "completed" });
    const [firstCharge] = await advance(m, uuid, new Date().toISOString());
    const due = (n: number) => periodStart(firstCharge!.transaction_date_time, "monthly", n);
    await eventually(async () => expect(await checkout(m, linked.id)).toMatchObject({ subscription_status: "active", next_charge_at: due(1) }));
    return { ...linked, uuid, due };
  }
  /** One consumer signed in at both merchants: a sandbox token reaches one merchant's records (docs/decisions/0001-sandbox-tenancy.md). */
  const atBoth = () => consumerTokensAt(world.stack, [first.apiKey, second.apiKey]);

  describe.skipIf(!!variant.skipReason)("a blocking return", () => {
    it("blocks the account for a second merchant's subscription on it: its renewal is not sent, it becomes unpaid, both merchants are told", async () => {
      const [atFirst, atSecond] = await atBoth();
      const a = await subscription(first, atFirst);
      const b = await subscription(second, atSecond);
      // The first merchant's renewal comes back unauthorized (R10) before it settled.
      const [, renewal] = await advance(first, a.uuid, a.due(1));
      expect((await simulate(first, renewal!.transaction_uuid, { status: "failed", failure_code: "R10" })).transaction_status).toBe("failed");

      await eventually(async () => expect(await checkout(second, b.id)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null }));
      await eventually(async () => expect(await checkout(first, a.id)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null }));
      // The second merchant's renewal falls due: nothing is charged.
      expect(await advance(second, b.uuid, b.due(3))).toHaveLength(1);
      expect(await advance(first, a.uuid, a.due(3))).toHaveLength(2);

      await eventually(async () => {
        const told = (await events(second, "payment_method.blocked")).filter((o) => o["checkout_id"] === b.id);
        expect(told).toHaveLength(1);
        expect(told[0]).toMatchObject({ object: "payment_method", blocked: true, failure_code: "R10", subscription_status: "unpaid", bank_account: { mask: "0000" } });
        // The other merchant's transaction is not named to this one.
        expect(told[0]).not.toHaveProperty("transaction_uuid");
      });
      await eventually(async () => {
        const told = (await events(first, "payment_method.blocked")).filter((o) => o["checkout_id"] === a.id);
        expect(told).toEqual([expect.objectContaining({ failure_code: "R10", transaction_uuid: renewal!.transaction_uuid })]);
      });
      await eventually(async () => expect((await events(second, "subscription.unpaid")).filter((o) => o["checkout_id"] === b.id)).toHaveLength(1));
      // The consumer portal shows the account blocked on both subscriptions, each at its merchant.
      for (const [consumer, id] of [[atFirst, a.id], [atSecond, b.id]] as const) {
        const listed = (await world.stack.app.inject({ url: "/api/consumers/subscriptions", headers: { authorization: `Token ${consumer.token}` } })).json() as {
          data: { checkout_id: string; bank_account: { mask: string; blocked: boolean } }[];
        };
        expect(listed.data.find((d) => d.checkout_id === id)?.bank_account).toMatchObject({ mask: "0000", blocked: true });
      }
      // No event reaches a merchant about a checkout of another.
      expect((await events(second, "payment_method.blocked")).filter((o) => o["checkout_id"] === a.id)).toEqual([]);
    });

    it("stops at its first renewal a subscription whose first charge was still pending when the account was blocked", async () => {
      const [atFirst, atSecond] = await atBoth();
      const a = await subscription(first, atFirst);
      // The second merchant's first charge leaves before the block, and settles after it.
      const b = await linkedCheckout(world.stack, second.apiKey, { is_subscription: true, plan_type: "monthly" }, { consumer: atSecond });
      const bUuid = (await charge(second, b.id)).json().transaction_uuid as string;
      const [, renewal] = await advance(first, a.uuid, a.due(1));
      await simulate(first, renewal!.transaction_uuid, { status: "failed", failure_code: "R07" });
      await eventually(async () => expect(await checkout(first, a.id)).toMatchObject({ subscription_status: "unpaid" }));
      await simulate(second, bUuid, { status: "completed" });
      const [firstCharge] = await advance(second, bUuid, new Date().toISOString());
      const due1 = periodStart(firstCharge!.transaction_date_time, "monthly", 1);
      await eventually(async () => expect(await checkout(second, b.id)).toMatchObject({ subscription_status: "active", next_charge_at: due1 }));

      // Its renewal falls due: checked under the renewal lease, not sent, the subscription unpaid.
      expect(await advance(second, bUuid, due1)).toHaveLength(1);
      await eventually(async () => expect(await checkout(second, b.id)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null }));
      await eventually(async () =>
        expect((await events(second, "payment_method.blocked")).filter((o) => o["checkout_id"] === b.id)).toEqual([expect.objectContaining({ failure_code: "R07", subscription_status: "unpaid" })]),
      );
      expect(await advance(second, bUuid, periodStart(firstCharge!.transaction_date_time, "monthly", 3))).toHaveLength(1);
    });

    it("refuses a first charge from a blocked account (409 bank_account_blocked) and starts no transfer; another account of the same consumer is debited", async () => {
      const [atFirst, atSecond] = await atBoth();
      const p = await linkedCheckout(world.stack, first.apiKey, {}, { consumer: atFirst });
      const uuid = (await charge(first, p.id)).json().transaction_uuid as string;
      await simulate(first, uuid, { status: "completed" });
      // A late return of the settled payment: account closed.
      expect((await simulate(first, uuid, { status: "failed", failure_code: "R02" })).transaction_status).toBe("returned");

      // The same account, linked again by the same consumer at another merchant.
      const again = await linkedCheckout(world.stack, second.apiKey, {}, { consumer: atSecond });
      const refused = await charge(second, again.id);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toMatchObject({ type: "conflict_error", code: "bank_account_blocked" });
      // Repeated, still refused; no transaction record, the checkout has no transfer.
      expect((await charge(second, again.id)).json().error.code).toBe("bank_account_blocked");
      expect(await records(atSecond)).toEqual([]);
      expect(await checkout(second, again.id)).toMatchObject({ status: "payment_method_saved", transfer: null });

      // The consumer's other account (savings) has another fingerprint: it is debited.
      const other = await linkedCheckout(world.stack, second.apiKey, {}, { consumer: atSecond, account: 1 });
      expect((await charge(second, other.id)).statusCode).toBe(200);
    });

    it("does not block on R01 (insufficient funds): the account is debited again", async () => {
      const [atFirst, atSecond] = await atBoth();
      const p = await linkedCheckout(world.stack, first.apiKey, {}, { consumer: atFirst });
      const uuid = (await charge(first, p.id)).json().transaction_uuid as string;
      expect((await simulate(first, uuid, { status: "failed", failure_code: "R01" })).transaction_status).toBe("failed");
      const again = await linkedCheckout(world.stack, second.apiKey, {}, { consumer: atSecond });
      const charged = await charge(second, again.id);
      expect(charged.statusCode, charged.body).toBe(200);
      expect(await events(first, "payment_method.blocked")).not.toContainEqual(expect.objectContaining({ checkout_id: p.id }));
    });
  });

  describe.skipIf(!!variant.skipReason)("the consumer's re-link", () => {
    const asConsumer = (c: Consumer) => ({ authorization: `Token ${c.token}` });
    const linkToken = (c: Consumer, uuid: string) =>
      world.stack.app.inject({ method: "POST", url: "/api/consumers/subscriptions/bank_account/link_token", payload: { subscription_transaction_uuid: uuid }, headers: asConsumer(c) });
    const relink = (c: Consumer, body: object) => world.stack.app.inject({ method: "POST", url: "/api/consumers/subscriptions/bank_account", payload: body, headers: asConsumer(c) });
    const mandate = async (m: Merchant, id: string) => (await world.stack.app.inject({ url: `/api/merchants/mandates/${id}`, headers: { "api-key": m.apiKey } })).json();
    const consumerPicker = (c: Consumer, link_token: string) =>
      world.stack.app.inject({ method: "POST", url: "/api/sandbox/consumers/public_token", payload: { link_token }, headers: asConsumer(c) });
    /** A public token for one of the consumer's sandbox accounts, through the re-link's link token and the consumer's sandbox picker. */
    async function publicToken(_m: Merchant, c: Consumer, uuid: string, account = 0) {
      const link = await linkToken(c, uuid);
      expect(link.statusCode, link.body).toBe(200);
      const picked = await consumerPicker(c, link.json().link_token as string);
      expect(picked.statusCode, picked.body).toBe(200);
      const pub = picked.json() as { public_token: string; accounts: { account_id: string }[] };
      return { public_token: pub.public_token, bankdata_account_id: pub.accounts[account]!.account_id, text_version: link.json().mandate.text_version as string };
    }
    /** A subscription of the first merchant made `unpaid` by an R10 on its first renewal. */
    async function unpaid() {
      const s = await subscription(first);
      const [, renewal] = await advance(first, s.uuid, s.due(1));
      await simulate(first, renewal!.transaction_uuid, { status: "failed", failure_code: "R10" });
      await eventually(async () => expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "unpaid" }));
      return s;
    }
    const relinkBody = (uuid: string, p: Awaited<ReturnType<typeof publicToken>>) => ({
      subscription_transaction_uuid: uuid,
      public_token: p.public_token,
      bankdata_account_id: p.bankdata_account_id,
      mandate: { text_version: p.text_version },
    });

    it("answers a link token with the recurring mandate text of the subscription's merchant, amount and frequency", async () => {
      const s = await unpaid();
      const reply = await linkToken(s.consumer, s.uuid);
      expect(reply.statusCode, reply.body).toBe(200);
      const body = reply.json();
      expect(body).toMatchObject({ link_token: expect.stringMatching(/^link-sandbox-/), expiration: expect.any(String), mandate: { text_version: expect.any(String) } });
      expect(body.mandate.text).toContain("Initech");
      expect(body.mandate.text).toMatch(/\$\d[\d,]*\.\d\d every month/);
      // The merchant-keyed sandbox picker takes the re-link's bank-linking token too.
      const picked = await post(first, "/api/sandbox/public_token", { link_token: body.link_token });
      expect(picked.statusCode, picked.body).toBe(200);
      expect(picked.json().accounts.map((a: { mask: string }) => a.mask)).toEqual(["0000", "1111", "2222"]);
    });

    it("keeps a re-link to an account the bank could not validate pending: micro-deposits sent, the subscription unchanged until they are entered (docs/decisions/0043-portal-micro-deposits.md)", async () => {
      const s = await unpaid();
      const before = (await checkout(first, s.id)).mandate_id as string;
      const p = await publicToken(first, s.consumer, s.uuid, 2);
      const pending = await relink(s.consumer, relinkBody(s.uuid, p));
      expect(pending.statusCode, pending.body).toBe(200);
      expect(pending.json()).toMatchObject({
        message: "Bank account change pending",
        mandate_id: expect.stringMatching(/^mdt_[0-9a-f]{32}$/),
        status: "unpaid",
        validation: { status: "micro_deposits_sent", pending_change: true, micro_deposits: { tries_left: 3 } },
      });
      expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null, mandate_id: before });
      expect(await mandate(first, before)).toMatchObject({ status: "active" });
      expect((await world.stack.app.inject({ url: `/api/merchants/mandates/${pending.json().mandate_id as string}`, headers: { "api-key": first.apiKey } })).statusCode).toBe(404);
    });

    it("recognises a re-link of the same account as blocked: 409 bank_account_blocked, the subscription stays unpaid", async () => {
      const s = await unpaid();
      const p = await publicToken(first, s.consumer, s.uuid, 0);
      const refused = await relink(s.consumer, relinkBody(s.uuid, p));
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe("bank_account_blocked");
      expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "unpaid", next_charge_at: null });
      expect(await advance(first, s.uuid, s.due(4))).toHaveLength(2);
    });

    it("makes the subscription active on another account, with a new mandate, and its next renewal draws on it", async () => {
      const s = await unpaid();
      const before = (await checkout(first, s.id)).mandate_id as string;
      const p = await publicToken(first, s.consumer, s.uuid, 1);
      const changed = await relink(s.consumer, relinkBody(s.uuid, p));
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ message: "Bank account changed", mandate_id: expect.stringMatching(/^mdt_[0-9a-f]{32}$/), status: "active" });
      const mandateId = changed.json().mandate_id as string;
      expect(await mandate(first, mandateId)).toMatchObject({ type: "recurring", status: "active", bank_account: { mask: "1111" } });
      expect(await mandate(first, before)).toMatchObject({ status: "revoked" });
      // No catch-up: the next charge is the next period's, on the new account.
      await eventually(async () => expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "active", next_charge_at: s.due(2), mandate_id: mandateId }));
      await eventually(async () => expect((await events(first, "subscription.reactivated")).filter((o) => o["checkout_id"] === s.id)).toHaveLength(1));
      const after = await advance(first, s.uuid, s.due(2));
      expect(after).toHaveLength(3);
      expect(after[2]).toMatchObject({ transaction_status: "pending" });
      expect((await mandate(first, mandateId)).last_debit_at).not.toBeNull();
    });

    it("answers 404 to another consumer on both routes, and 409 for a cancelled subscription", async () => {
      const s = await unpaid();
      const stranger = await consumerToken(world.stack, first.apiKey);
      const link = await linkToken(stranger, s.uuid);
      expect(link.statusCode).toBe(404);
      expect(link.json().error.code).toBe("transaction_not_found");
      // Nor does the consumer's sandbox picker take a bank-linking token issued to someone else.
      const own = (await linkToken(s.consumer, s.uuid)).json().link_token as string;
      const foreign = await consumerPicker(stranger, own);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().error).toMatchObject({ code: "parameter_invalid", param: "link_token" });
      const p = await publicToken(first, s.consumer, s.uuid, 1);
      const other = await relink(stranger, relinkBody(s.uuid, p));
      expect(other.statusCode).toBe(404);
      expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "unpaid" });

      const cancel = await world.stack.app.inject({ method: "POST", url: "/api/merchants/manage_subscription/subscription_cancel", payload: { subscription_transaction_uuid: s.uuid }, headers: asConsumer(s.consumer) });
      expect(cancel.statusCode, cancel.body).toBe(200);
      const late = await relink(s.consumer, relinkBody(s.uuid, p));
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe("subscription_cancelled");
      expect((await linkToken(s.consumer, s.uuid)).statusCode).toBe(409);
    });

    it("leaves one active mandate and one payment method when 20 re-links race", async () => {
      const s = await unpaid();
      const tokens = [];
      for (let i = 0; i < 20; i++) tokens.push(await publicToken(first, s.consumer, s.uuid, 1));
      const replies = await Promise.all(tokens.map((p) => relink(s.consumer, relinkBody(s.uuid, p))));
      const ok = replies.filter((r) => r.statusCode === 200).map((r) => r.json().mandate_id as string);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of replies.filter((r) => r.statusCode !== 200)) expect([r.statusCode, r.json().error.code]).toEqual([409, "transfer_in_progress"]);
      const statuses = await Promise.all(ok.map(async (id) => (await mandate(first, id)).status as string));
      expect(statuses.filter((st) => st === "active")).toHaveLength(1);
      const active = ok[statuses.indexOf("active")]!;
      await eventually(async () => expect(await checkout(first, s.id)).toMatchObject({ subscription_status: "active", mandate_id: active }));
      // The subscription draws on that account: its next renewal is charged under that mandate.
      expect(await advance(first, s.uuid, s.due(2))).toHaveLength(3);
      expect((await mandate(first, active)).last_debit_at).not.toBeNull();
    });
  });
});
