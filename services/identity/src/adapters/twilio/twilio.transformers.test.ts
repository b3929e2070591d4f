import { describe, expect, it } from "vitest";
import { fromCreatedMessage, toMessageParams, toSmsError } from "./twilio.transformers.ts";

describe("twilio transformers", () => {
  it("map Twilio's invalid-number codes to 400 invalid_phone_number", () => {
    for (const code of [21211, 21217, 21401, 21614]) {
      const err = toSmsError({ status: 400, code, message: "The 'To' number +1 is not valid" });
      expect([err.code, err.status, err.param, err.providerCode]).toEqual(["invalid_phone_number", 400, "phone", String(code)]);
    }
  });

  it("map every other refusal to 502 provider_error with Twilio's code, or the HTTP status", () => {
    const cases: [unknown, string][] = [
      [{ status: 429, code: 20429 }, "20429"],
      [{ status: 400, code: 21610 }, "21610"],
      [{ status: 401, code: 20003 }, "20003"],
      [{ status: 500 }, "http_500"],
      [new Error("socket hang up"), "network_error"],
      [null, "network_error"],
      ["text", "network_error"],
    ];
    for (const [err, providerCode] of cases) {
      const mapped = toSmsError(err);
      expect([mapped.code, mapped.status, mapped.providerCode], JSON.stringify(err)).toEqual(["provider_error", 502, providerCode]);
    }
  });

  it("pick the sender parameter by the shape of the sender", () => {
    expect(toMessageParams("+1", "+14155550000", "t")).toEqual({ to: "+1", from: "+14155550000", body: "t" });
    expect(toMessageParams("+1", `MG${"0".repeat(32)}`, "t")).toEqual({ to: "+1", messagingServiceSid: `MG${"0".repeat(32)}`, body: "t" });
  });

  it("read the sid of a created message, refusing an answer without one", () => {
    expect(fromCreatedMessage({ sid: "SM123" })).toEqual({ messageId: "SM123" });
    expect(() => fromCreatedMessage({})).toThrow(/without a message id/);
  });
});
