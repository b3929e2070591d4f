import { describe, expect, it } from "vitest";
import { chargeEntryDescription, checkoutEntryDescription, descriptorFromName } from "./company-entry-description.ts";

const merchant = { name: "Acme Coffee Roasters", statementDescriptor: null, defaultTransactionPurpose: "goods" as const };

describe("company entry descriptions", () => {
  it("describes goods as PURCHASE, whatever the descriptor", () => {
    expect(checkoutEntryDescription("goods", { ...merchant, statementDescriptor: "ACME SUBS" })).toBe("PURCHASE");
    expect(checkoutEntryDescription(null, merchant)).toBe("PURCHASE");
  });

  it("describes services and other purposes by the statement descriptor, or the merchant's name", () => {
    expect(checkoutEntryDescription("services", { ...merchant, statementDescriptor: "ACME SUBS" })).toBe("ACME SUBS");
    expect(checkoutEntryDescription("other", merchant)).toBe("ACME COFFE");
    expect(checkoutEntryDescription(undefined, { ...merchant, defaultTransactionPurpose: "services" })).toBe("ACME COFFE");
  });

  it("describes a retry RETRY PYMT and any other charge as its checkout", () => {
    expect(chargeEntryDescription("ACME SUBS", 1)).toBe("RETRY PYMT");
    expect(chargeEntryDescription("ACME SUBS", 2)).toBe("RETRY PYMT");
    expect(chargeEntryDescription("ACME SUBS", 0)).toBe("ACME SUBS");
    expect(chargeEntryDescription("PURCHASE", undefined)).toBe("PURCHASE");
    expect(chargeEntryDescription(undefined, undefined)).toBe("PURCHASE");
  });

  it("derives a descriptor NACHA accepts from any name", () => {
    expect(descriptorFromName("Zoë's Café — Paris")).toBe("ZOE S CAFE");
    expect(descriptorFromName("  a  b  ")).toBe("A B");
    expect(descriptorFromName("1234 ☕")).toBe("PAYMENT");
    expect(descriptorFromName("Globex Corporation")).toBe("GLOBEX COR");
  });
});
