import { describe, expect, it } from "vitest";
import { decisionOutcome, initiateOutcome, releasesHold } from "./refund-state.ts";

describe("refund state machine", () => {
  it("lets a decision move only a pending refund", () => {
    expect(decisionOutcome("pending", "approved")).toBe("move");
    expect(decisionOutcome("pending", "rejected")).toBe("move");
  });

  it("answers a repeated decision as before and refuses the other one", () => {
    expect(decisionOutcome("rejected", "rejected")).toBe("same");
    expect(decisionOutcome("rejected", "approved")).toBe("conflict");
    for (const status of ["approved", "processing", "completed", "failed"] as const) {
      expect(decisionOutcome(status, "approved")).toBe("same");
      expect(decisionOutcome(status, "rejected")).toBe("conflict");
    }
  });

  it("starts an approved refund, retries a failed one, resumes one whose transfer id was lost, repeats a started one", () => {
    expect(initiateOutcome({ status: "approved", refundTransactionId: null })).toBe("start");
    expect(initiateOutcome({ status: "failed", refundTransactionId: "t" })).toBe("retry");
    expect(initiateOutcome({ status: "processing", refundTransactionId: null })).toBe("resume");
    expect(initiateOutcome({ status: "processing", refundTransactionId: "t" })).toBe("done");
    expect(initiateOutcome({ status: "completed", refundTransactionId: "t" })).toBe("done");
    for (const status of ["pending", "rejected"] as const) {
      expect(initiateOutcome({ status, refundTransactionId: null })).toBe("conflict");
    }
  });

  it("gives the amount back only when the refund was rejected or its payout failed", () => {
    expect(["pending", "approved", "rejected", "processing", "completed", "failed"].filter((s) => releasesHold(s as never))).toEqual(["rejected", "failed"]);
  });
});
