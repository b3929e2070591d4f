import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysAfter, periodStart } from "../../payments/src/domain/renewals/billing-period.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { mailpitTestUrls, messageBody, messagesTo } from "../../../test/support/mailpit.ts";
import { freshEmail, startNoticesStack, type NoticesStack, type SandboxNotice } from "./support/notices-stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();
const mailpit = await mailpitTestUrls();

type Record_ = { id: number; transaction_uuid: string; transaction_date_time: string; amount: number };
const both = (type: string) => [`${type}/sms`, `${type}/email`];
const byCreation = (list: SandboxNotice[]) => [...list].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

/**
 * What the consumer is told across a subscription's life on the test clock, and how they stop
 * what may be stopped (docs/decisions/0009-consumer-notices.md): every notice type for a one-off
 * payment and a monthly subscription over two renewals (one failing R01, one at an amount the
 * merchant changed, announced 10 days before), read back from the sandbox outbox and from
 * Mailpit; the unsubscribe link, one-click, and a forged or re-pointed token refused.
 */
describe.each(variants)("notices over a subscription's life over $name", (variant) => {
  let n: NoticesStack;

  beforeAll(async () => {
    if (variant.skipReason) return;
    n = await startNoticesStack(variant, mailpit);
  });
  afterAll(async () => {
    await n?.close();
    await variant.cleanup();
  });

  const simulate = async (uuid: string, status: "completed" | "failed", failureCode?: string) => {
    const reply = await n.post(`/api/sandbox/transfers/${uuid}/simulate`, { status, ...(failureCode ? { failure_code: failureCode } : {}) });
    expect(reply.statusCode, reply.body).toBe(200);
  };
  /** The emails Mailpit got for `address` once there are `count`, by subject (skipped, [] without Mailpit). */
  const mailed = async (address: string, count: number) => {
    if (!mailpit.apiUrl) return [];
    return eventually(async () => {
      const found = await messagesTo(mailpit.apiUrl!, address);
      expect(found).toHaveLength(count);
      return found;
    });
  };

  describe.skipIf(!!variant.skipReason)("every notice type", () => {
    it("tells a monthly subscriber of the authorization, each renewal before it, an R01 failure, a changed amount 10 days ahead, the receipts and the cancellation", async () => {
      const address = freshEmail("monthly");
      const { id, consumer } = await linkedCheckout(n.stack, n.merchant.apiKey, { is_subscription: true, plan_type: "monthly", customer: { email: address } }, { acceptMandate: true });
      const uuid = (await n.post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).json().transaction_uuid as string;
      await simulate(uuid, "completed");
      const advance = async (to: string) => {
        const reply = await n.post(`/api/sandbox/subscriptions/${uuid}/advance`, { to });
        expect(reply.statusCode, reply.body).toBe(200);
        return (reply.json() as Record_[]).sort((a, b) => a.id - b.id);
      };
      const [first] = await advance(new Date().toISOString());
      const due = (k: number) => periodStart(first!.transaction_date_time, "monthly", k);
      let expected = [...both("authorization_copy"), ...both("payment_receipt")];
      await n.settled(id, expected);

      // Renewal 1: announced on the clock's way, before it is charged; then it fails (R01).
      const renewal1 = (await advance(due(1)))[1]!;
      expected = [...expected, ...both("upcoming_charge")];
      const announced1 = (await n.settled(id, expected)).filter((x) => x.type === "upcoming_charge");
      for (const x of announced1) {
        expect(x.body).toContain("$107.50");
        expect(x.body).toContain(new Date(due(1)).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }));
        expect(x.body).not.toContain("previous payment");
      }
      await simulate(renewal1.transaction_uuid, "failed", "R01");
      expected = [...expected, ...both("payment_failed")];
      await n.settled(id, expected);
      // Its retry (3 days after the failure) is not announced again: the failure notice told of it.
      const retry = (await advance(daysAfter(due(1), 3)))[2]!;
      await simulate(retry.transaction_uuid, "completed");
      expected = [...expected, ...both("payment_receipt")];
      await n.settled(id, expected);

      // The merchant changes the amount: it applies from renewal 2, announced 10 days before it.
      const changed = await n.post(`/api/merchants/subscriptions/${id}`, { amount: "120.00" });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ checkout_id: id, amount: "120.00", previous_amount: "107.50", amount_effective_at: due(2), subscription_status: "active" });
      expect(await advance(daysAfter(due(2), -10))).toHaveLength(3);
      expected = [...expected, ...both("upcoming_charge")];
      const tenDay = (await n.settled(id, expected)).filter((x) => x.type === "upcoming_charge" && !announced1.some((a) => a.id === x.id));
      for (const x of tenDay) {
        expect(x.body).toContain("$120.00");
        expect(x.body).toContain("previous payment was $107.50");
      }
      const renewal2 = (await advance(due(2)))[3]!;
      expect(renewal2.amount).toBe(120);
      await simulate(renewal2.transaction_uuid, "completed");
      expected = [...expected, ...both("payment_receipt")];
      await n.settled(id, expected);
      const cancelled = await n.post("/api/merchants/manage_subscription/subscription_cancel/", { subscription_transaction_uuid: uuid }, { authorization: `Token ${consumer.token}` });
      expect(cancelled.statusCode).toBe(200);
      expected = [...expected, ...both("subscription_cancelled")];
      const list = await n.settled(id, expected);

      expect(list.every((x) => x.status === "sent")).toBe(true);
      // In the order they were written: each renewal's notice before its outcome.
      expect(byCreation(list.filter((x) => x.channel === "sms")).map((x) => x.type)).toEqual([
        ...(byCreation(list)[0]!.type === "authorization_copy" ? ["authorization_copy", "payment_receipt"] : ["payment_receipt", "authorization_copy"]),
        "upcoming_charge", "payment_failed", "payment_receipt", "upcoming_charge", "payment_receipt", "subscription_cancelled",
      ]);
      const receipt2 = list.find((x) => x.type === "payment_receipt" && x.channel === "email" && x.transaction_uuid === renewal2.transaction_uuid)!;
      expect(receipt2.body).toContain("$120.00");
      expect(list.find((x) => x.type === "payment_failed" && x.channel === "email")!.transaction_uuid).toBe(renewal1.transaction_uuid);

      // The same eight emails reached the SMTP server: the 10-day notice with both amounts.
      const emails = await mailed(address, 8);
      if (mailpit.apiUrl) {
        const subjects = emails.map((m) => m.Subject).sort();
        expect(subjects.filter((s) => s.startsWith("Receipt:"))).toHaveLength(3);
        expect(subjects.filter((s) => s.startsWith("Upcoming payment of $107.50"))).toHaveLength(1);
        const change = emails.find((m) => m.Subject.startsWith("Your payment to Acme & <Sons> changes to $120.00"))!;
        expect((await messageBody(mailpit.apiUrl, change.ID)).Text).toContain("previous payment was $107.50");
        const headers = (await (await fetch(`${mailpit.apiUrl}/api/v1/message/${change.ID}/headers`)).json()) as Record<string, string[]>;
        // A changed amount's notice is the law's (Reg E 1005.10(d)): no unsubscribe.
        expect(headers["List-Unsubscribe"]).toBeUndefined();
      }
    });

    it("tells a one-off payer of the authorization, the receipt, a failed payment and the refund", async () => {
      const address = freshEmail("oneoff");
      const paid = await payment(n.stack, n.merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true });
      const refund = await requested(n.stack, paid);
      expect((await refundClient(n.stack).decide(n.headers(), refund.id, "Approved")).statusCode).toBe(200);
      await n.settled(paid.checkoutId, [...both("authorization_copy"), ...both("payment_receipt"), ...both("refund_update")]);
      const failed = await payment(n.stack, n.merchant.apiKey, "failed", { customer: { email: address } }, { acceptMandate: true, consumer: paid.consumer });
      const list = await n.settled(failed.checkoutId, [...both("authorization_copy"), ...both("payment_failed")]);
      expect(list.find((x) => x.type === "payment_failed")!.body).toContain("https://pay.example/account/payments");
      const emails = await mailed(address, 5);
      if (mailpit.apiUrl) expect(emails.map((m) => m.Subject.split(" ")[0]).sort()).toEqual(["Receipt:", "Your", "Your", "Your", "Your"]);
    });
  });

  describe.skipIf(!!variant.skipReason)("unsubscribing", () => {
    /** The receipt's unsubscribe token, from its email's text. */
    const tokenOf = (notice: SandboxNotice) => /\/notices\/unsubscribe\/([\w.-]+)/.exec(notice.body)![1]!;

    it("stops the merchant's receipts by email after one click, and never the authorization copy or a failed payment", async () => {
      const address = freshEmail("unsub");
      const paid = await payment(n.stack, n.merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true });
      const receipt = (await n.settled(paid.checkoutId, [...both("authorization_copy"), ...both("payment_receipt")])).find((x) => x.type === "payment_receipt" && x.channel === "email")!;
      const url = `/notices/unsubscribe/${tokenOf(receipt)}`;
      const page = await n.stack.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expect(page.body).toContain("Acme &amp; &lt;Sons&gt;");
      expect(page.body).toContain('<form method="post">');
      // RFC 8058's one-click, as a mail client sends it: no cookie, no page.
      const click = await n.stack.app.inject({ method: "POST", url, payload: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(click.statusCode, click.body).toBe(200);
      expect(click.body).toContain("You are unsubscribed");
      expect((await n.stack.app.inject({ method: "POST", url })).statusCode).toBe(200);
      const multipart = "--b\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b--\r\n";
      expect((await n.stack.app.inject({ method: "POST", url, payload: multipart, headers: { "content-type": "multipart/form-data; boundary=b" } })).statusCode).toBe(200);
      expect((await n.stack.app.inject({ url })).body).toContain("You are unsubscribed");

      const again = await payment(n.stack, n.merchant.apiKey, "completed", { customer: { email: address } }, { acceptMandate: true, consumer: paid.consumer });
      const list = await n.settled(again.checkoutId, [...both("authorization_copy"), ...both("payment_receipt")]);
      const status = Object.fromEntries(list.map((x) => [`${x.type}/${x.channel}`, x.status]));
      // Unsent (the record says failed); SMS is stopped by replying STOP to the SMS provider, not by this link.
      expect(status).toEqual({ "authorization_copy/sms": "sent", "authorization_copy/email": "sent", "payment_receipt/sms": "sent", "payment_receipt/email": "failed" });
      const failed = await payment(n.stack, n.merchant.apiKey, "failed", { customer: { email: address } }, { acceptMandate: true, consumer: paid.consumer });
      const failures = await n.settled(failed.checkoutId, [...both("authorization_copy"), ...both("payment_failed")]);
      expect(failures.every((x) => x.status === "sent")).toBe(true);
      // What reached Mailpit: the first receipt, but not the second; every copy and the failure.
      const emails = await mailed(address, 5);
      if (mailpit.apiUrl) expect(emails.filter((m) => m.Subject.startsWith("Receipt:"))).toHaveLength(1);
    });

    it("refuses a forged token, one re-pointed at another merchant and a malformed one, with a 400 page", async () => {
      const paid = await payment(n.stack, n.merchant.apiKey, "completed", { customer: { email: freshEmail("forged") } }, { acceptMandate: true });
      const receipt = (await n.settled(paid.checkoutId, [...both("authorization_copy"), ...both("payment_receipt")])).find((x) => x.type === "payment_receipt" && x.channel === "email")!;
      const token = tokenOf(receipt);
      const [version, payload, signature] = token.split(".") as [string, string, string];
      const other = await n.stack.merchant("Globex");
      // The payload's bytes 2–17 are the merchant id's 16 bytes (unsubscribe-token.ts): put another merchant's there.
      const bytes = Buffer.from(payload, "base64url");
      Buffer.from(other.id.slice(4), "hex").copy(bytes, 2);
      const repointed = `${version}.${bytes.toString("base64url")}.${signature}`;
      const forged = `${version}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
      for (const bad of [forged, repointed, "u1.x.y", "not-a-token-at-all-but-long-enough", "%3Cscript%3E"]) {
        for (const method of ["GET", "POST"] as const) {
          const reply = await n.stack.app.inject({ method, url: `/notices/unsubscribe/${bad}` });
          expect(reply.statusCode, `${method} ${bad}`).toBe(400);
          expect(reply.body).toContain("This unsubscribe link is not valid");
        }
      }
      // The genuine token still works: nothing above opted anyone out.
      expect((await n.stack.app.inject({ url: `/notices/unsubscribe/${token}` })).body).toContain('<form method="post">');
    });
  });

  describe.skipIf(!!variant.skipReason)("changing a subscription's amount", () => {
    it("answers bad input with a 4xx naming the field, another merchant's checkout with 404 and a one-off with 409", async () => {
      const { id } = await linkedCheckout(n.stack, n.merchant.apiKey, { is_subscription: true, plan_type: "monthly" }, { acceptMandate: true });
      const uuid = (await n.post("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: id })).json().transaction_uuid as string;
      // Before the first charge settled there is no renewal to change.
      expect((await n.post(`/api/merchants/subscriptions/${id}`, { amount: "12.00" })).json().error.code).toBe("transaction_not_settled");
      await simulate(uuid, "completed");
      for (const amount of ["12.000", "-1", " 12", "012", "0", 0, "1e3", null, true]) {
        const reply = await n.post(`/api/merchants/subscriptions/${id}`, { amount });
        expect(reply.statusCode, JSON.stringify(amount)).toBe(400);
        expect(reply.json().error, JSON.stringify(amount)).toMatchObject({ code: "amount_invalid", param: "amount" });
      }
      const extra = await n.post(`/api/merchants/subscriptions/${id}`, { amount: "12.00", plan_type: "yearly" });
      expect(extra.statusCode).toBe(400);
      expect((await n.post(`/api/merchants/subscriptions/${id}`, {})).statusCode).toBe(400);
      const other = await n.stack.merchant("Initech");
      expect((await n.post(`/api/merchants/subscriptions/${id}`, { amount: "12.00" }, { "api-key": other.apiKey })).statusCode).toBe(404);
      expect((await n.post(`/api/merchants/subscriptions/${id}`, { amount: "12.00" }, {})).statusCode).toBe(401);
      const oneOff = await payment(n.stack, n.merchant.apiKey, "completed");
      const reply = await n.post(`/api/merchants/subscriptions/${oneOff.checkoutId}`, { amount: 12 });
      expect(reply.statusCode).toBe(409);
      expect(reply.json().error.code).toBe("not_a_subscription");
      // A number is echoed as a number.
      expect((await n.post(`/api/merchants/subscriptions/${id}`, { amount: 12.5 })).json()).toMatchObject({ amount: 12.5, previous_amount: "107.50" });
    });
  });
});
