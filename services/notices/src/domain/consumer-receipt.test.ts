import { describe, expect, it } from "vitest";
import { isReceiptOf, toReceiptSummary } from "./consumer-receipt.ts";
import type { NoticeDoc } from "./notice.entity.ts";

const receipt = {
  _id: "ntc_0123456789abcdef0123456789abcdef",
  merchantId: "mer_bakery",
  type: "payment_receipt",
  userId: "usr_ada",
  portalCopy: true,
  subject: "Receipt: $1.00 to Bakery",
  transactionUuid: "sc-0123456789abcdef0123456789abcdef",
  createdAt: "2026-11-28T10:00:00.000Z",
  merchant: { name: "Bakery", supportEmail: "help@bakery.example", supportPhone: null },
} as NoticeDoc;
const ada = { kind: "user" as const, userId: "usr_ada", phone: "+14155550100" };

describe("isReceiptOf", () => {
  it("lets a consumer read their own receipt's portal copy, with a live token or their merchant's sandbox one", () => {
    expect(isReceiptOf(receipt, ada)).toBe(true);
    expect(isReceiptOf(receipt, { ...ada, merchantId: "mer_bakery" })).toBe(true);
  });

  it("answers no for another consumer, another merchant's sandbox token, the other channel's copy, another type, a notice without a consumer, and none", () => {
    expect(isReceiptOf(receipt, { ...ada, userId: "usr_bob" })).toBe(false);
    expect(isReceiptOf(receipt, { ...ada, merchantId: "mer_books" })).toBe(false);
    expect(isReceiptOf({ ...receipt, portalCopy: false }, ada)).toBe(false);
    expect(isReceiptOf({ ...receipt, type: "authorization_copy" }, ada)).toBe(false);
    const { userId: _none, ...older } = receipt;
    expect(isReceiptOf(older as NoticeDoc, ada)).toBe(false);
    expect(isReceiptOf(null, ada)).toBe(false);
  });
});

describe("toReceiptSummary", () => {
  it("names the merchant as the notice did", () => {
    expect(toReceiptSummary(receipt)).toEqual({
      id: receipt._id,
      subject: "Receipt: $1.00 to Bakery",
      merchant: { name: "Bakery", support_email: "help@bakery.example", support_phone: null },
      transaction_uuid: receipt.transactionUuid,
      created_at: receipt.createdAt,
    });
  });
});
