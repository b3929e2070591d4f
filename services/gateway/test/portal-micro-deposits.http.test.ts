import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Stack } from "../../../test/support/stack.ts";
import { consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import type { LinkedCheckout } from "./support/payment-flow.ts";
import { PortalClient } from "./support/portal-client.ts";
import { payment, type Payment } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();
const MONTHLY = { is_subscription: true, plan_type: "monthly" };

/**
 * The portal's change of a subscription's bank account to one the bank could not validate
 * (docs/decisions/0043-portal-micro-deposits.md), over HTTP on both stores: the change is kept
 * pending, the two-amount form says the tries left, three wrong pairs lock the account and the
 * consumer chooses another; the right amounts (as the sandbox's notice tells them) switch the
 * subscription under the new mandate, and the next renewal is debited under it. Another
 * consumer, or the consumer's sandbox sign-in at another merchant, finds none of it; the API's
 * two routes do the same for a client holding the consumer's token.
 */
describe.each(variants)("the portal's pending change of account over $name", (variant) => {
  // The notices service beside the stack: the consumer's micro_deposits notice is where the amounts are read.
  const world = withWebhooksStack(variant, { PUBLIC_URL: "https://pay.example" }, ["notices"]);
  let stack: Stack;
  let bakery: { id: string; apiKey: string };
  let books: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = world.stack;
    bakery = await stack.merchant("Corner Bakery");
    books = await stack.merchant("Paper Lantern Books");
  });

  const merchantGet = async (url: string) => (await stack.app.inject({ url, headers: { "api-key": bakery.apiKey } })).json();
  const events = async (type: string, checkoutId: string) =>
    ((await merchantGet(`/api/merchants/events?type=${type}`)) as { data: { data: { object: Record<string, unknown> } }[] }).data.map((e) => e.data.object).filter((o) => o["checkout_id"] === checkoutId);

  /** A consumer signed in through the portal at the bakery, with a monthly subscription there whose first charge settled. */
  async function subscriber(): Promise<{ client: PortalClient; consumer: LinkedCheckout["consumer"]; atBooks: LinkedCheckout["consumer"]; sub: Payment }> {
    const client = new PortalClient(stack);
    const phone = randomPhone();
    await client.signIn(phone, bakery.apiKey);
    const consumer = { token: client.cookies.get("payrail_account")!, userId: "", phone };
    // The bookshop reads its own code of the same sign-in (before any notice is texted to the phone).
    const [atBooks] = await consumerTokensAt(stack, [books.apiKey], phone, { sent: true });
    const sub = await payment(stack, bakery.apiKey, "completed", MONTHLY, { consumer, acceptMandate: true });
    return { client, consumer, atBooks, sub };
  }
  const page = (sub: Payment, rest = "") => `/account/subscriptions/${sub.uuid}/bank-account${rest}`;
  /** Picks the sandbox bank's account ending `mask` on the bank-account page and accepts the authorization. */
  async function choose(client: PortalClient, sub: Payment, mask: string) {
    const form = await client.get(page(sub));
    expect(form.statusCode, form.body).toBe(200);
    const publicToken = /name="public_token" value="([^"]+)"/.exec(form.body)![1]!;
    const textVersion = /name="text_version" value="([^"]+)"/.exec(form.body)![1]!;
    const accountId = new RegExp(`name="account_id" value="([^"]+)" required> <span>[^<]+ ending ${mask}`).exec(form.body)![1]!;
    return client.post(page(sub), { public_token: publicToken, account_id: accountId, text_version: textVersion });
  }
  /** The two amounts, as the sandbox's micro_deposits notice of the subscription's checkout tells the consumer. */
  const noticed = (sub: Payment) =>
    eventually(async () => {
      const reply = await stack.app.inject({ url: `/api/sandbox/notices?checkout_id=${sub.checkoutId}`, headers: { "api-key": bakery.apiKey } });
      const notice = (reply.json() as { data: { type: string; channel: string; body: string }[] }).data.find((n) => n.type === "micro_deposits" && n.channel === "sms");
      const amounts = /the amounts are \$(0\.\d\d) and \$(0\.\d\d)/.exec(notice?.body ?? "");
      expect(amounts, notice?.body).not.toBeNull();
      return { amounts: [amounts![1]!, amounts![2]!] as [string, string], body: notice!.body };
    });
  const wrongPair = (right: readonly string[]) => ["0.99", "0.98", "0.97", "0.96"].filter((x) => !right.includes(x)).slice(0, 2) as [string, string];
  const subscriptionOf = async (consumer: LinkedCheckout["consumer"], sub: Payment) =>
    ((await stack.app.inject({ url: "/api/consumers/subscriptions", headers: { authorization: `Token ${consumer.token}` } })).json() as {
      data: { checkout_id: string; mandate_id: string; next_charge_at: string; bank_account: { mask: string } }[];
    }).data.find((s) => s.checkout_id === sub.checkoutId)!;

  describe.skipIf(!!variant.skipReason)("the walk", () => {
    it("keeps the change pending on the unverifiable account, counts wrong pairs on the form, locks at the third, and lets the consumer choose another", async () => {
      const { client, consumer, sub } = await subscriber();
      const before = await subscriptionOf(consumer, sub);
      expect((await client.get(page(sub))).body).toContain("By confirming this change of bank account, you authorize Corner Bakery to debit the bank account you choose, instead of the account you pay from now");

      const chosen = await choose(client, sub, "2222");
      expect(chosen.statusCode, chosen.body).toBe(303);
      expect(chosen.headers.location).toBe(page(sub, "/verify"));
      const form = await client.get(page(sub, "/verify"));
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain("Your subscription keeps drawing on your current account until you enter them");
      expect(form.body).toContain("You have 3 tries left.");
      // Back on the choice, the waiting change is offered before another choice would replace it.
      expect((await client.get(page(sub))).body).toContain(`A change to another account is waiting for its two small deposits. <a href="${page(sub, "/verify")}">Enter the amounts</a>`);
      const { amounts, body } = await noticed(sub);
      expect(body).toContain("the bank account you chose for your subscription");
      expect(body).toContain(`https://pay.example/account/subscriptions/${sub.uuid}/bank-account/verify`);

      const wrong = wrongPair(amounts);
      const first = await client.post(page(sub, "/verify"), { amount_1: wrong[0], amount_2: wrong[1] });
      expect(first.statusCode).toBe(400);
      expect(first.body).toContain("Those are not the two amounts we sent");
      expect(first.body).toContain("You have 2 tries left.");
      // Not an amount: said on the form, no try counted.
      const typo = await client.post(page(sub, "/verify"), { amount_1: "seven", amount_2: wrong[1] });
      expect(typo.statusCode).toBe(400);
      expect(typo.body).toContain("Enter each deposit as an amount under $1.00");
      expect(typo.body).toContain("You have 2 tries left.");
      expect((await client.post(page(sub, "/verify"), { amount_1: wrong[0], amount_2: wrong[1] })).body).toContain("You have 1 try left.");
      const locked = await client.post(page(sub, "/verify"), { amount_1: wrong[0], amount_2: wrong[1] });
      expect(locked.statusCode).toBe(409);
      expect(locked.body).toContain("Three wrong pairs of amounts were entered, so this bank account cannot be used");
      expect(locked.body).toContain(`href="${page(sub)}">Choose another account`);
      expect((await client.get(page(sub, "/verify"))).body).toContain("Three wrong pairs");
      expect((await client.get(page(sub))).body).not.toContain("is waiting for its two small deposits");
      // Nothing changed meanwhile: the same account and mandate.
      expect(await subscriptionOf(consumer, sub)).toMatchObject({ mandate_id: before.mandate_id, bank_account: { mask: before.bank_account.mask } });
      await eventually(async () =>
        expect(await events("bank_account.validation_required", sub.checkoutId)).toEqual([
          expect.objectContaining({ status: "locked", pending_change: true, bank_account: expect.objectContaining({ mask: "2222" }) }),
          expect.objectContaining({ status: "validation_required", pending_change: true }),
        ]),
      );

      const another = await choose(client, sub, "1111");
      expect(another.statusCode, another.body).toBe(303);
      expect(another.headers.location).toBe("/account/subscriptions?account_changed=1");
      expect(await subscriptionOf(consumer, sub)).toMatchObject({ bank_account: { mask: "1111" } });
      // Nothing is pending any more: the form sends the consumer back to their subscriptions.
      expect((await client.get(page(sub, "/verify"))).headers.location).toBe("/account/subscriptions");
    });

    it("switches the subscription under the new mandate on the right amounts, and the next renewal is debited under it", async () => {
      const { client, consumer, sub } = await subscriber();
      const before = await subscriptionOf(consumer, sub);
      expect((await choose(client, sub, "2222")).statusCode).toBe(303);
      const { amounts } = await noticed(sub);
      await client.get(page(sub, "/verify"));
      // In any order, as typed from a statement.
      const done = await client.post(page(sub, "/verify"), { amount_1: `$${amounts[1]}`, amount_2: amounts[0].slice(1) });
      expect(done.statusCode, done.body).toBe(303);
      expect(done.headers.location).toBe("/account/subscriptions?account_changed=1");
      const list = await client.get("/account/subscriptions?account_changed=1");
      expect(list.body).toContain("Bank account changed");
      expect(list.body).toContain("ending 2222");

      const after = await subscriptionOf(consumer, sub);
      expect(after.bank_account.mask).toBe("2222");
      expect(after.mandate_id).not.toBe(before.mandate_id);
      const mandate = await merchantGet(`/api/merchants/mandates/${after.mandate_id}`);
      expect(mandate).toMatchObject({ type: "recurring", status: "active", text_version: "2026-11-28.1", bank_account: { mask: "2222" }, validation: { method: "micro_deposits" } });
      expect(await merchantGet(`/api/merchants/mandates/${before.mandate_id}`)).toMatchObject({ status: "revoked" });
      await eventually(async () => expect(await events("bank_account.validated", sub.checkoutId)).toEqual([expect.objectContaining({ status: "validated", pending_change: true })]));

      const renewed = await stack.app.inject({ method: "POST", url: `/api/sandbox/subscriptions/${sub.uuid}/advance`, payload: { to: after.next_charge_at }, headers: { "api-key": bakery.apiKey } });
      expect(renewed.statusCode, renewed.body).toBe(200);
      expect(renewed.json()).toHaveLength(2);
      expect((await merchantGet(`/api/merchants/mandates/${after.mandate_id}`)).last_debit_at).toEqual(expect.any(String));
    });
  });

  describe.skipIf(!!variant.skipReason)("whose subscription", () => {
    it("answers 404 to another consumer and to the consumer's sandbox sign-in at another merchant, on the page and the API", async () => {
      const { client, atBooks, sub } = await subscriber();
      expect((await choose(client, sub, "2222")).statusCode).toBe(303);
      const { amounts } = await noticed(sub);
      const bob = await subscriber();
      for (const token of [bob.consumer.token, atBooks.token]) {
        const other = new PortalClient(stack);
        other.cookies.set("payrail_account", token);
        await other.get("/account/subscriptions");
        expect((await other.get(page(sub, "/verify"))).statusCode).toBe(404);
        expect((await other.post(page(sub, "/verify"), { amount_1: amounts[0], amount_2: amounts[1] })).statusCode).toBe(404);
        expect((await other.post(page(sub, "/deposits"))).statusCode).toBe(404);
        const api = await stack.app.inject({
          method: "POST",
          url: "/api/consumers/subscriptions/bank_account/micro_deposits/verify",
          headers: { authorization: `Token ${token}` },
          payload: { subscription_transaction_uuid: sub.uuid, amounts },
        });
        expect(api.statusCode).toBe(404);
        expect(api.json().error.code).toBe("transaction_not_found");
      }
      // Still pending, no try counted: the consumer's own form says 3.
      expect((await client.get(page(sub, "/verify"))).body).toContain("You have 3 tries left.");
    });

    it("does the same through the API's two routes for a client holding the consumer's token", async () => {
      const { client, consumer, sub } = await subscriber();
      expect((await choose(client, sub, "2222")).statusCode).toBe(303);
      const { amounts } = await noticed(sub);
      const api = (path: string, payload: object) =>
        stack.app.inject({ method: "POST", url: `/api/consumers/subscriptions/bank_account/micro_deposits${path}`, headers: { authorization: `Token ${consumer.token}` }, payload });
      const open = await api("", { subscription_transaction_uuid: sub.uuid });
      expect(open.statusCode, open.body).toBe(200);
      expect(open.json()).toMatchObject({ object: "bank_account_validation", checkout_id: sub.checkoutId, status: "micro_deposits_sent", pending_change: true, micro_deposits: { tries_left: 3 } });
      const bad = await api("/verify", { subscription_transaction_uuid: sub.uuid, amounts: ["1.50", "0.02"] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: "parameter_invalid", param: "amounts" });
      const verified = await api("/verify", { subscription_transaction_uuid: sub.uuid, amounts });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toMatchObject({ status: "validated", pending_change: false, validation: { method: "micro_deposits" } });
      expect((await api("", { subscription_transaction_uuid: sub.uuid })).json().error.code).toBe("bank_account_already_validated");
      expect(await subscriptionOf(consumer, sub)).toMatchObject({ bank_account: { mask: "2222" } });
    });
  });
});
