import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getNoticeContactsOp, sendNoticeSmsOp, type AnyDomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import * as notices from "@payrail/notices";
import { periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { mailpitTestUrls, messageBody, messagesTo } from "../../../test/support/mailpit.ts";
import type { Stack } from "../../../test/support/stack.ts";
import { IdentitySmsSender } from "../../notices/src/adapters/identity/identity-sms.sender.ts";
import { freshEmail as email, startNoticesStack, type NoticesStack } from "./support/notices-stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();
const mailpit = await mailpitTestUrls();

/**
 * Consumer notices end to end (docs/decisions/0009-consumer-notices.md): the notices service
 * beside the stack, fed by the events of real flows through the gateway; what each consumer was
 * told read back from the sandbox outbox and, with Mailpit running, from its HTTP API.
 */
describe.each(variants)("consumer notices over $name", (variant) => {
  let n: NoticesStack;
  let stack: Stack;
  let merchant: NoticesStack["merchant"];
  let noticesTransport: Transport;
  const completedEvents: AnyDomainEvent[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    n = await startNoticesStack(variant, mailpit);
    ({ stack, merchant, noticesTransport } = n);
    // Every transaction.completed (to deliver one again) and checkout.created (to read what it carries).
    const spy = await variant.transport();
    await spy.subscribe("notices-spy", ["transaction.completed", "checkout.created"], async (event) => void completedEvents.push(event));
  });
  afterAll(async () => {
    await n?.close();
    await variant.cleanup();
  });

  const headers = () => n.headers();
  const outbox = (checkoutId: string) => n.outbox(checkoutId);
  const settled = (checkoutId: string, expected: string[]) => n.settled(checkoutId, expected);
  const post = (url: string, payload: object, h?: Record<string, string>) => n.post(url, payload, h);

  describe.skipIf(!!variant.skipReason)("what the consumer is told", () => {
    it("sends a one-off payment's authorization copy and receipt by SMS and email, naming the merchant and its support", async () => {
      const address = email("oneoff");
      const p = await payment(stack, merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true });
      const list = await settled(p.checkoutId, ["authorization_copy/sms", "authorization_copy/email", "payment_receipt/sms", "payment_receipt/email"]);
      for (const n of list) {
        expect(n.status).toBe("sent");
        expect(n.body).toContain("Acme & <Sons>");
        expect(n.body).toContain("help@acme.example");
        expect(n.body).toContain("+15555550199");
        expect(n.to).not.toContain(address.split("@")[0]);
      }
      const copy = list.find((n) => n.type === "authorization_copy" && n.channel === "email")!;
      const checkout = (await stack.app.inject({ url: `/api/merchants/checkout/${p.checkoutId}`, headers: headers() })).json();
      expect(copy.body).toContain(checkout.mandate_id);
      expect(copy.body).toContain("By confirming this payment, you authorize Acme & <Sons>");
      expect(copy.body).toContain("one payment of $");
      expect(copy.body).toContain("https://pay.example/account");
      expect(copy.body).not.toContain("unsubscribe");
      const receipt = list.find((n) => n.type === "payment_receipt" && n.channel === "email")!;
      expect(receipt.transaction_uuid).toBe(p.uuid);
      expect(receipt.body).toMatch(/https:\/\/pay\.example\/notices\/unsubscribe\/u1\.[\w-]+\.[\w-]{22}/);
      // The merchant's list: the same records, without what they say.
      const mine = await stack.app.inject({ url: `/api/merchants/notices?checkout_id=${p.checkoutId}`, headers: headers() });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data.map((n: { id: string }) => n.id).sort()).toEqual(list.map((n) => n.id).sort());
      expect(mine.json().data[0]).not.toHaveProperty("body");
      // Another merchant sees none of them.
      const other = await stack.merchant("Globex");
      const theirs = await stack.app.inject({ url: `/api/merchants/notices?checkout_id=${p.checkoutId}`, headers: { "api-key": other.apiKey } });
      expect(theirs.json().data).toEqual([]);
    });

    it("writes no second notice when the event that caused it comes again", async () => {
      const p = await payment(stack, merchant.apiKey, "completed", {}, { acceptMandate: true });
      const before = await settled(p.checkoutId, ["authorization_copy/sms", "payment_receipt/sms"]);
      const event = await eventually(async () => {
        const found = completedEvents.find((e) => e.type === "transaction.completed" && e.data.object.transaction_uuid === p.uuid);
        expect(found).toBeDefined();
        return found!;
      });
      const handled = () => noticesTransport.stats().events.consumed["transaction.completed"] ?? 0;
      const seen = handled();
      await stack.transport.publish(event);
      await eventually(async () => expect(handled()).toBeGreaterThan(seen));
      expect((await outbox(p.checkoutId)).map((n) => n.id).sort()).toEqual(before.map((n) => n.id).sort());
    });

    it("tells a monthly subscriber by SMS only (no email) of the authorization, each renewal before and after it, a failed one with the portal link, and the cancellation", async () => {
      const { id, consumer } = await linkedCheckout(stack, merchant.apiKey, { is_subscription: true, plan_type: "monthly" }, { acceptMandate: true });
      const uuid = (await post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).json().transaction_uuid as string;
      expect((await post(`/api/sandbox/transfers/${uuid}/simulate`, { status: "completed" })).statusCode).toBe(200);
      const advance = async (to: string) => {
        const reply = await post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
        expect(reply.statusCode, reply.body).toBe(200);
        return (reply.json() as { id: number; transaction_uuid: string; transaction_date_time: string }[]).sort((a, b) => a.id - b.id);
      };
      const [first] = await advance(new Date().toISOString());
      const due = (n: number) => periodStart(first!.transaction_date_time, "monthly", n);
      await settled(id, ["authorization_copy/sms", "payment_receipt/sms"]);
      const renewal = (await advance(due(1)))[1]!;
      expect((await post(`/api/sandbox/transfers/${renewal.transaction_uuid}/simulate`, { status: "completed" })).statusCode).toBe(200);
      const failing = (await advance(due(2)))[2]!;
      expect((await post(`/api/sandbox/transfers/${failing.transaction_uuid}/simulate`, { status: "failed", failure_code: "R01" })).statusCode).toBe(200);
      const cancelled = await post("/api/merchants/manage_subscription/subscription_cancel/", { subscription_transaction_uuid: uuid }, { authorization: `Token ${consumer.token}` });
      expect(cancelled.statusCode).toBe(200);
      const list = await settled(id, [
        "authorization_copy/sms", "payment_receipt/sms", "upcoming_charge/sms", "payment_receipt/sms", "upcoming_charge/sms", "payment_failed/sms", "subscription_cancelled/sms",
      ]);
      expect(list.find((n) => n.type === "authorization_copy")!.body).toContain("every month");
      const failed = list.find((n) => n.type === "payment_failed")!;
      expect(failed.transaction_uuid).toBe(failing.transaction_uuid);
      expect(failed.body).toContain(`https://pay.example/account/subscriptions/${uuid}/bank-account`);
      expect(list.filter((n) => n.type === "payment_receipt").map((n) => n.transaction_uuid).sort()).toEqual([uuid, renewal.transaction_uuid].sort());
    });

    it("tells the consumer when a refund is approved and when it is paid", async () => {
      const p = await payment(stack, merchant.apiKey, "completed", { customer: { email: email("refund") } }, { acceptMandate: true });
      const refund = await requested(stack, p);
      const refunds = refundClient(stack);
      expect((await refunds.decide(headers(), refund.id, "Approved")).statusCode).toBe(200);
      const transferId = (await refunds.initiate(headers(), refund.id)).json().refund.refund_transaction_id as string;
      expect((await refunds.simulate(merchant.apiKey, transferId, "completed")).statusCode).toBe(200);
      const list = await settled(p.checkoutId, [
        "authorization_copy/sms", "authorization_copy/email", "payment_receipt/sms", "payment_receipt/email",
        "refund_update/sms", "refund_update/email", "refund_update/sms", "refund_update/email",
      ]);
      const updates = list.filter((n) => n.type === "refund_update" && n.channel === "sms").map((n) => n.body);
      expect(updates.some((b) => b.includes("was approved"))).toBe(true);
      expect(updates.some((b) => b.includes("has been paid back"))).toBe(true);
    });

    it("lets identity send a notice SMS to the verified phone and name the consumer's phone masked, to a service only", async () => {
      const { consumer } = await linkedCheckout(stack, merchant.apiKey);
      const asService = { requestId: "req_test", principal: { kind: "service" as const, service: "notices" } };
      const contacts = await stack.transport.call(getNoticeContactsOp, { merchant_id: merchant.id, user_id: consumer.userId }, asService);
      expect(contacts.merchant).toEqual({ name: "Acme & <Sons>", support_email: "help@acme.example", support_phone: "+15555550199" });
      expect(contacts.phone_masked).toMatch(/^\+1•+\d{4}$/);
      expect(contacts.phone_masked!.slice(-4)).toBe(consumer.phone.slice(-4));
      // The live SMS path: notices' adapter asks identity, which sends through its provider.
      const sender = new IdentitySmsSender(stack.transport);
      expect(await sender.send(consumer.userId, "Your receipt")).toMatchObject({ ok: true });
      expect(await sender.send("0".repeat(32), "Your receipt")).toMatchObject({ ok: false, permanent: true });
      const asMerchant = { requestId: "req_test", principal: { kind: "merchant" as const, merchantId: merchant.id, keyPrefix: "sk_test_x", livemode: false } };
      await expect(stack.transport.call(sendNoticeSmsOp, { user_id: consumer.userId, text: "phish" }, asMerchant)).rejects.toMatchObject({ code: "permission_denied" });
      await expect(stack.transport.call(getNoticeContactsOp, { merchant_id: merchant.id, user_id: consumer.userId }, asMerchant)).rejects.toMatchObject({ code: "permission_denied" });
    });

    it("refuses a customer.email that is not an email address with a 400 naming it", async () => {
      const { sampleCheckout } = await import("../../../test/support/fixtures.ts");
      const reply = await post("/api/merchants/checkout", sampleCheckout({ customer: { email: "not an address" } }));
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ error: { code: "parameter_invalid", param: "customer.email" } });
    });

    it("keeps the consumer's email out of the checkout's events while Get Checkout echoes it", async () => {
      const address = email("private");
      const { id } = await linkedCheckout(stack, merchant.apiKey, { customer: { email: address } });
      expect((await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: headers() })).json().customer).toEqual({ email: address });
      const created = await eventually(async () => {
        const found = completedEvents.find((e) => e.type === "checkout.created" && e.aggregate.id === id);
        expect(found).toBeDefined();
        return found!;
      });
      expect(created.data.object).not.toHaveProperty("customer");
      expect(JSON.stringify(created)).not.toContain(address);
    });
  });

  describe.skipIf(!!variant.skipReason || !!mailpit.skipReason)(`email through Mailpit${mailpit.skipReason ? ` (skipped: ${mailpit.skipReason})` : ""}`, () => {
    it("delivers the emails to Mailpit: escaped HTML naming the merchant, the receipt with an unsubscribe header", async () => {
      const address = email("mailpit");
      const p = await payment(stack, merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true });
      await settled(p.checkoutId, ["authorization_copy/sms", "authorization_copy/email", "payment_receipt/sms", "payment_receipt/email"]);
      const messages = await eventually(async () => {
        const found = await messagesTo(mailpit.apiUrl!, address);
        expect(found).toHaveLength(2);
        return found;
      });
      expect(messages.map((m) => m.Subject).sort()).toEqual(["Receipt: $107.50 to Acme & <Sons>", "Your payment authorization for Acme & <Sons>"].sort());
      const receiptId = messages.find((m) => m.Subject.startsWith("Receipt"))!.ID;
      const receipt = await messageBody(mailpit.apiUrl!, receiptId);
      const receiptHeaders = (await (await fetch(`${mailpit.apiUrl}/api/v1/message/${receiptId}/headers`)).json()) as Record<string, string[]>;
      expect(receiptHeaders["List-Unsubscribe"]?.[0]).toMatch(/^<https:\/\/pay\.example\/notices\/unsubscribe\/u1\.[\w-]+\.[\w-]{22}>$/);
      expect(receiptHeaders["List-Unsubscribe-Post"]?.[0]).toBe("List-Unsubscribe=One-Click");
      const copyId = messages.find((m) => m.Subject.startsWith("Your payment authorization"))!.ID;
      const copyHeaders = (await (await fetch(`${mailpit.apiUrl}/api/v1/message/${copyId}/headers`)).json()) as Record<string, string[]>;
      expect(copyHeaders["List-Unsubscribe"]).toBeUndefined();
      expect(receipt.HTML).toContain("Acme &amp; &lt;Sons&gt;");
      expect(receipt.HTML).not.toContain("<Sons>");
      expect(receipt.Text).toContain("help@acme.example");
    });

    it("loses nothing while the SMTP server is down: the email stays queued and goes out once it is back", async () => {
      const address = email("outage");
      const retried = () => notices.noticeStats.snapshot().retried;
      const before = retried();
      await n.gate!.close();
      const p = await payment(stack, merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true });
      await eventually(async () => {
        const list = await outbox(p.checkoutId);
        expect(list.filter((n) => n.channel === "email").map((n) => n.status)).toEqual(["queued", "queued"]);
        expect(retried()).toBeGreaterThan(before + 1);
      });
      await n.gate!.open();
      await settled(p.checkoutId, ["authorization_copy/sms", "authorization_copy/email", "payment_receipt/sms", "payment_receipt/email"]);
      expect((await outbox(p.checkoutId)).map((n) => n.status)).toEqual(["sent", "sent", "sent", "sent"]);
      await eventually(async () => expect(await messagesTo(mailpit.apiUrl!, address)).toHaveLength(2));
    });

    it("marks a notice to a bouncing address failed, and the payment goes through regardless", async () => {
      const failedBefore = notices.noticeStats.snapshot().failed;
      const p = await payment(stack, merchant.apiKey, "completed", { customer: { email: "nobody@bounce.invalid" } }, { acceptMandate: true });
      const list = await settled(p.checkoutId, ["authorization_copy/sms", "authorization_copy/email", "payment_receipt/sms", "payment_receipt/email"]);
      expect(list.filter((n) => n.channel === "email").map((n) => n.status)).toEqual(["failed", "failed"]);
      expect(list.filter((n) => n.channel === "sms").map((n) => n.status)).toEqual(["sent", "sent"]);
      // Counted right after the write that marks it failed: the list can show it a moment before.
      await eventually(async () => expect(notices.noticeStats.snapshot().failed).toBeGreaterThanOrEqual(failedBefore + 2));
      expect((await stack.app.inject({ url: `/api/merchants/checkout/${p.checkoutId}`, headers: headers() })).json().status).toBe("paid");
    });
  });
});
