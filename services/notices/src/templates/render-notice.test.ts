import { describe, expect, it } from "vitest";
import { noticeContent } from "./notice-content.ts";
import { MERCHANT_NAME_MAX, renderNotice, safeMerchant } from "./render-notice.ts";

const checkout = { email: null, amountCents: 10_750, currency: "USD", isSubscription: false, planType: null, subscriptionUuid: null };
const hostile = { name: "Evil <script>alert(1)</script>\r\nBcc: all@x.example", supportEmail: "help@evil.example", supportPhone: "+15555550199" };

function render(type: Parameters<typeof noticeContent>[0]["type"], channel: "sms" | "email", unsubscribe?: string) {
  const merchant = safeMerchant(hostile);
  const content = noticeContent({ type, merchant: merchant.name, checkout, facts: {}, mandateId: "mdt_1", mandate: null, portalUrl: "https://pay.example/account" });
  return renderNotice(channel, content, merchant, unsubscribe);
}

describe("notice templates", () => {
  it("escapes the merchant's name in the HTML and flattens its line breaks everywhere", () => {
    const email = render("payment_receipt", "email", "https://pay.example/notices/unsubscribe/ntc_1");
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("Evil &lt;script&gt;alert(1)&lt;/script&gt; Bcc: all@x.example");
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.body).not.toContain("\r");
  });

  it("cuts a long merchant name to its limit", () => {
    expect(safeMerchant({ ...hostile, name: "A".repeat(500) }).name).toHaveLength(MERCHANT_NAME_MAX);
  });

  it("names the merchant and its support email and phone in every notice, on both channels", () => {
    for (const type of ["authorization_copy", "payment_receipt", "upcoming_charge", "payment_failed", "refund_update", "subscription_cancelled", "micro_deposits"] as const) {
      for (const channel of ["sms", "email"] as const) {
        const { body } = render(type, channel);
        expect(body, `${type}/${channel}`).toContain("help@evil.example");
        expect(body, `${type}/${channel}`).toContain("+15555550199");
        expect(body, `${type}/${channel}`).toContain("Evil");
      }
    }
  });

  it("gives the unsubscribe link only where one is passed (receipts), never in an authorization copy", () => {
    expect(render("payment_receipt", "email", "https://pay.example/notices/unsubscribe/ntc_1").html).toContain("https://pay.example/notices/unsubscribe/ntc_1");
    const copy = render("authorization_copy", "email");
    expect(copy.body).not.toContain("unsubscribe");
    expect(copy.html).not.toContain("Unsubscribe");
  });

  it("sends the consumer of a subscription's pending change of account to the portal, not to a payment page", () => {
    const facts = { expiresAt: "2026-12-08T10:00:00.000Z", microDepositAmounts: ["0.07", "0.15"] };
    const sub = { ...checkout, isSubscription: true, planType: "monthly" as const, subscriptionUuid: "sc-0123456789abcdef0123456789abcdef" };
    const content = (pendingChange?: boolean) =>
      noticeContent({ type: "micro_deposits", merchant: "Acme", checkout: sub, facts: { ...facts, ...(pendingChange ? { pendingChange } : {}) }, mandateId: null, mandate: null, portalUrl: "https://pay.example/account" });
    const pending = content(true);
    expect(pending.sms).toContain("the bank account you chose for your subscription");
    expect(pending.sms).toContain("https://pay.example/account/subscriptions/sc-0123456789abcdef0123456789abcdef/bank-account/verify by December 8, 2026");
    expect(pending.sms).toContain("(Sandbox: the amounts are $0.07 and $0.15.)");
    expect(pending.paragraphs.join(" ")).toContain("keeps drawing on your current account until you confirm it");
    expect(pending.action).toEqual({ label: "Confirm your new bank account", url: "https://pay.example/account/subscriptions/sc-0123456789abcdef0123456789abcdef/bank-account/verify" });
    expect(content().sms).toContain("Enter both amounts on the payment page");
  });
});
