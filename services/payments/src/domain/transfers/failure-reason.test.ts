import { describe, expect, it } from "vitest";
import { transferFailureReason } from "./failure-reason.ts";

describe("transfer failure reasons", () => {
  it("names the common ACH return codes, and any other return or failure by its code", () => {
    expect(transferFailureReason("R01")).toBe("Insufficient funds (ACH return R01)");
    expect(transferFailureReason("R03")).toBe("No account, or unable to locate the account (ACH return R03)");
    expect(transferFailureReason("R85")).toBe("Returned by the bank (ACH return R85)");
    expect(transferFailureReason("cancelled")).toBe("The transfer was cancelled before it settled");
    expect(transferFailureReason("failed")).toBe("The transfer failed (failed)");
  });
});
