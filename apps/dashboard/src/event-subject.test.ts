import { describe, expect, it } from "vitest";
import { subjectOf } from "./event-subject.ts";

describe("the object an event is about", () => {
  it("names a transaction record by its uuid, never its sequential id", () => {
    expect(subjectOf({ id: 7, transaction_uuid: "sc-1f", checkout_id: 3, checkout: "chk_ab" })).toBe("sc-1f");
  });

  it("names checkouts, refunds and mandates by their own ids", () => {
    expect(subjectOf({ id: "chk_ab", status: "paid" })).toBe("chk_ab");
    expect(subjectOf({ id: "rfd_cd", transaction_uuid: "sc-1f" })).toBe("rfd_cd");
    expect(subjectOf({ id: "mdt_ef", checkout_id: "chk_ab" })).toBe("mdt_ef");
  });

  it("falls back to the checkout, and to nothing", () => {
    expect(subjectOf({ checkout_id: "chk_ab" })).toBe("chk_ab");
    expect(subjectOf({ checkout_id: 3 })).toBe("");
  });
});
