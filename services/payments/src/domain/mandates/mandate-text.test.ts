import { describe, expect, it } from "vitest";
import { MANDATE_TEXT_VERSION, RELINK_MANDATE_TEXT_VERSION, renderMandateText } from "./mandate-text.ts";

const on = new Date("2026-11-25T13:00:00.000Z");

describe("the mandate text", () => {
  it("names the merchant, the amount once, the first debit's date and how to revoke, for a one-off payment", () => {
    const r = renderMandateText({ merchantName: "Corner Bakery", checkout: { amount_cents: 10750, currency: "USD", is_subscription: false, plan_type: null }, firstDebitOn: on });
    expect(r.text_version).toBe(MANDATE_TEXT_VERSION);
    expect(r.text).toContain("you authorize Corner Bakery to debit the bank account you choose for a one-time payment of $107.50 on November 25, 2026");
    expect(r.text).toContain("/account");
    expect(r.text).toContain("or by contacting Corner Bakery");
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("names the plan's frequency for a subscription, with thousands separated", () => {
    const r = renderMandateText({ merchantName: "Acme", checkout: { amount_cents: 123456789, currency: "USD", is_subscription: true, plan_type: "quarterly" }, firstDebitOn: on });
    expect(r.text).toContain("$1,234,567.89 every quarter, starting on November 25, 2026, until you cancel");
  });

  it("hashes the words: another amount or day is another hash", () => {
    const base = { merchantName: "Acme", checkout: { amount_cents: 500, currency: "USD", is_subscription: false, plan_type: null }, firstDebitOn: on };
    const h = renderMandateText(base).sha256;
    expect(renderMandateText(base).sha256).toBe(h);
    expect(renderMandateText({ ...base, checkout: { ...base.checkout, amount_cents: 501 } }).sha256).not.toBe(h);
    expect(renderMandateText({ ...base, firstDebitOn: new Date("2026-11-26T00:00:00.000Z") }).sha256).not.toBe(h);
  });
});

describe("the mandate text's versions", () => {
  const sub = { merchantName: "Acme", checkout: { amount_cents: 1999, currency: "USD", is_subscription: true, plan_type: "monthly" as const }, firstDebitOn: on };

  it("words a change of bank account as one, with the amount, the frequency, the first charge and how to revoke", () => {
    const r = renderMandateText(sub, RELINK_MANDATE_TEXT_VERSION)!;
    expect(r.text_version).toBe(RELINK_MANDATE_TEXT_VERSION);
    expect(r.text).toMatch(/^By confirming this change of bank account, you authorize Acme to debit the bank account you choose, instead of the account you pay from now, for \$19\.99 every month, starting with the charge due on November 25, 2026/);
    expect(r.text).not.toContain("this payment");
    expect(r.text).toContain("until you cancel, as an electronic (ACH) debit");
    expect(r.text).toContain("You can revoke this authorization at any time in your account at /account on this site");
    expect(r.text).toContain("or by contacting Acme; debits already made are not affected.");
  });

  it("keeps the payment's version renderable word for word, so mandates accepted under it still match their hash", () => {
    const old = renderMandateText(sub, MANDATE_TEXT_VERSION)!;
    expect(old.text).toBe(
      "By confirming this payment, you authorize Acme to debit the bank account you choose for $19.99 every month, starting on November 25, 2026, until you cancel, as an electronic (ACH) debit. You can revoke this authorization at any time in your account at /account on this site (sign in with your phone number), or by contacting Acme; debits already made are not affected.",
    );
    expect(old).toEqual(renderMandateText(sub));
    expect(renderMandateText(sub, RELINK_MANDATE_TEXT_VERSION)!.sha256).not.toBe(old.sha256);
  });

  it("renders no words for a version Payrail never had", () => {
    expect(renderMandateText(sub, "2020-01-01.1")).toBeNull();
  });
});
