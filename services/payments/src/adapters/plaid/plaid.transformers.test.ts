import { AppError } from "@payrail/contracts";
import { describe, expect, it } from "vitest";
import { PLAID_FIXTURES as F } from "./plaid.fixtures.ts";
import { fromAccountsResponse, fromExchangeResponse, fromLinkTokenResponse, fromProcessorTokenResponse, toAppError, toLinkTokenRequest } from "./plaid.transformers.ts";

const thrown = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected a throw");
};

describe("plaid transformers", () => {
  it("asks for an Auth link token for US banks, one consumer per token", () => {
    expect(toLinkTokenRequest({ clientUserId: "u1" }, "Payrail")).toEqual({
      client_name: "Payrail",
      language: "en",
      country_codes: ["US"],
      products: ["auth"],
      user: { client_user_id: "u1" },
    });
  });

  it("reads Plaid's documented answers", () => {
    expect(fromLinkTokenResponse(F.linkTokenCreate)).toEqual({
      linkToken: F.linkTokenCreate.link_token,
      expiration: "2020-03-27T12:56:34.000Z",
      requestId: "XQVgFigpGHXkb0b",
    });
    expect(fromExchangeResponse(F.publicTokenExchange)).toEqual({
      accessToken: F.publicTokenExchange.access_token,
      itemId: F.publicTokenExchange.item_id,
      requestId: "Aim3b",
    });
    expect(fromProcessorTokenResponse(F.processorTokenCreate)).toEqual({ processorToken: "processor-sandbox-0asd1-a92nc", requestId: "xrQNYZ7Zoh6R7gV" });
  });

  it("reads the chosen account's mask and the item's bank from /accounts/get, for the mandate", () => {
    const answer = {
      accounts: [{ account_id: "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp", mask: "0000", name: "Plaid Checking" }],
      item: { item_id: "eVBnVMp7zdTJLkRNr33Rs6zr7KNJqBFL9DrE6", institution_id: "ins_109508", institution_name: "First Platypus Bank" },
      request_id: "bkVE1BHWMAZ9Rnr",
    };
    expect(fromAccountsResponse(answer, "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")).toEqual({ institution: "First Platypus Bank", mask: "0000", validated: true });
    expect(fromAccountsResponse({ ...answer, item: { institution_id: "ins_109508" } }, "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp").institution).toBe("ins_109508");
    const pending = { ...answer, accounts: answer.accounts.map((a) => ({ ...a, verification_status: "pending_manual_verification" })) };
    expect(fromAccountsResponse(pending, "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp").validated).toBe(false);
    const verified = { ...answer, accounts: answer.accounts.map((a) => ({ ...a, verification_status: "manually_verified" })) };
    expect(fromAccountsResponse(verified, "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp").validated).toBe(true);
    expect(() => fromAccountsResponse(answer, "another")).toThrow(expect.objectContaining({ code: "provider_error", providerCode: "INVALID_ACCOUNT_ID" }));
  });

  it("treats a malformed answer as a provider failure", () => {
    for (const bad of [null, "ok", {}, { link_token: "", expiration: "x", request_id: "r" }]) {
      expect(thrown(() => fromLinkTokenResponse(bad))).toMatchObject({ code: "provider_error", status: 502 });
    }
    expect(thrown(() => fromExchangeResponse({ item_id: "i", request_id: "r" })).code).toBe("provider_error");
  });

  it("makes a used or unknown public token the caller's 400, naming public_token", () => {
    const err = toAppError("/item/public_token/exchange", { status: 400, body: F.invalidPublicToken });
    expect(err).toMatchObject({ code: "parameter_invalid", param: "public_token", providerCode: "INVALID_PUBLIC_TOKEN", status: 400 });
  });

  it("makes every other refusal a 502 carrying Plaid's error_code", () => {
    for (const [endpoint, body] of [
      ["/link/token/create", F.invalidApiKeys],
      ["/processor/token/create", F.invalidAccountId],
      ["/item/public_token/exchange", F.rateLimit],
      // The same code on another endpoint is not the caller's mistake there.
      ["/link/token/create", F.invalidPublicToken],
    ] as const) {
      const err = toAppError(endpoint, { status: 400, body });
      expect(err).toMatchObject({ code: "provider_error", providerCode: body.error_code, status: 502 });
      expect(err.message).not.toContain(body.error_message);
    }
  });

  it("makes no answer or a foreign body a 502 without a provider code", () => {
    expect(toAppError("/link/token/create", { networkCode: "ECONNREFUSED" })).toMatchObject({ code: "provider_error", providerCode: undefined });
    expect(toAppError("/link/token/create", { status: 500, body: "<html>" }).message).toContain("HTTP 500");
  });
});
