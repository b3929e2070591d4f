import { AppError } from "@payrail/contracts";
import { describe, expect, it } from "vitest";
import { plainFailure } from "../../src/adapters/dwolla/dwolla.sdk-failure.ts";
import {
  existingResourceHref,
  fromDwollaStatus,
  fromFailureResponse,
  fromFundingSourceResponse,
  fromTransferResponse,
  idFromLocation,
  isRefusedForGood,
  toAppError,
  toCreateCustomerBody,
  toCreateTransferBody,
  toDwollaAmount,
} from "../../src/adapters/dwolla/dwolla.transformers.ts";

const API = "https://api-sandbox.dwolla.com";

/** Error bodies as Dwolla documents them. */
const fixtures = {
  validation: {
    code: "ValidationError",
    message: "Validation error(s) present. See embedded errors list for more details.",
    _embedded: { errors: [{ code: "Invalid", message: "Invalid amount.", path: "/amount/value", _links: {} }] },
  },
  invalidState: { code: "InvalidResourceState", message: "Resource cannot be modified." },
  duplicateBank: {
    code: "DuplicateResource",
    message: "Bank already exists: id=024c25f9-3a6b-42ce-8ca5-7a8cee9ad5fd",
    _links: { about: { href: "", type: "application/vnd.dwolla.v1.hal+json", "resource-type": "funding-source" } },
  },
  duplicateEmail: {
    code: "ValidationError",
    message: "Validation error(s) present. See embedded errors list for more details.",
    _embedded: {
      errors: [
        {
          code: "Duplicate",
          message: "A customer with the specified email already exists.",
          path: "/email",
          _links: { about: { href: `${API}/customers/707177c3-bf15-4e7e-b37c-55c3898d9bf4` } },
        },
      ],
    },
  },
};

describe("Dwolla transformers", () => {
  it("maps Dwolla's transfer statuses explicitly and anything else to pending", () => {
    expect(fromDwollaStatus("pending")).toEqual({ status: "pending", known: true });
    expect(fromDwollaStatus("processed")).toEqual({ status: "completed", known: true });
    expect(fromDwollaStatus("failed")).toEqual({ status: "failed", known: true });
    expect(fromDwollaStatus("cancelled")).toEqual({ status: "cancelled", known: true });
    expect(fromDwollaStatus("reclaimed")).toEqual({ status: "pending", known: false });
    expect(fromDwollaStatus("toString")).toEqual({ status: "pending", known: false });
  });

  it("writes cents as Dwolla's decimal string without floating point", () => {
    expect(toDwollaAmount(1, "USD")).toEqual({ value: "0.01", currency: "USD" });
    expect(toDwollaAmount(100, "USD").value).toBe("1.00");
    expect(toDwollaAmount(10_750, "USD").value).toBe("107.50");
    expect(toDwollaAmount(9_999_999_999, "USD").value).toBe("99999999.99");
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => toDwollaAmount(bad, "USD")).toThrow(AppError);
  });

  it("builds the customer and transfer bodies", () => {
    expect(toCreateCustomerBody({ userId: "ab", phone: "+1555", firstName: "Jane" }, "unverified", "x.example")).toEqual({
      firstName: "Jane",
      lastName: "Customer",
      email: "user-ab@x.example",
    });
    expect(toCreateCustomerBody({ userId: "ab", phone: "+1555" }, "receive-only", "x.example")).toMatchObject({ type: "receive-only" });
    const transfer = { sourceFundingSource: "s", destinationFundingSource: "d", amountCents: 5, currency: "USD", idempotencyKey: "k" };
    expect(toCreateTransferBody(transfer)).toEqual({ _links: { source: { href: "s" }, destination: { href: "d" } }, amount: { value: "0.05", currency: "USD" }, correlationId: "k" });
    expect(toCreateTransferBody({ ...transfer, metadata: { a: "1" } })).toHaveProperty("metadata", { a: "1" });
  });

  it("reads ids from Location headers and refuses a missing or foreign one", () => {
    expect(idFromLocation(`${API}/transfers/15c6bcce-46f7-e811-8112-e8dd3bececa8`, "transfers")).toBe("15c6bcce-46f7-e811-8112-e8dd3bececa8");
    expect(() => idFromLocation(null, "transfers")).toThrow(AppError);
    expect(() => idFromLocation(`${API}/customers/abc`, "transfers")).toThrow(/no transfers location/);
  });

  it("reads transfers and failures, and calls a malformed answer a provider error", () => {
    expect(fromTransferResponse({ id: "t1", status: "failed", _links: { failure: { href: `${API}/transfers/t1/failure` } } })).toEqual({
      transferId: "t1",
      vendorStatus: "failed",
      failureHref: `${API}/transfers/t1/failure`,
    });
    expect(fromFailureResponse({ code: "R01", description: "Insufficient Funds" })).toBe("R01");
    expect(() => fromTransferResponse({ status: "pending" })).toThrow(expect.objectContaining({ code: "provider_error", providerCode: "invalid_response" }));
  });

  it("reads a funding source's fingerprint (Dwolla's GET /funding-sources/{id}), null when it has none", () => {
    const fingerprint = "4cf31392f678cb26c62b75096e1a09d4465a801798b3d5c3729de44a4f54c794";
    expect(fromFundingSourceResponse({ id: "fs1", status: "verified", type: "bank", name: "Checking", fingerprint })).toEqual({ fingerprint });
    expect(fromFundingSourceResponse({ id: "fs2", type: "balance", name: "Balance" })).toEqual({ fingerprint: null });
    expect(() => fromFundingSourceResponse({ fingerprint })).toThrow(expect.objectContaining({ code: "provider_error" }));
  });

  it("maps every failure to provider_error, carrying Dwolla's code", () => {
    const validation = toAppError({ status: 400, body: fixtures.validation });
    expect(validation).toMatchObject({ code: "provider_error", providerCode: "ValidationError", status: 502 });
    expect(validation.message).toContain("Invalid amount. (/amount/value)");
    expect(toAppError({ status: 403, body: fixtures.invalidState })).toMatchObject({ providerCode: "InvalidResourceState" });
    expect(toAppError({ status: 502, body: "<html>" })).toMatchObject({ providerCode: "http_502" });
    expect(toAppError({ oauthError: "invalid_client" })).toMatchObject({ providerCode: "invalid_client" });
    expect(toAppError({ networkCode: "ECONNRESET" })).toMatchObject({ providerCode: "network_error" });
    expect(toAppError({ networkCode: "timeout" }).message).toContain("timeout");
    expect(toAppError({ networkCode: "invalid_response" })).toMatchObject({ providerCode: "invalid_response" });
  });

  it("tells a refusal for good (Dwolla answered 400, 403 or 404 with its error body) from a failure worth retrying", () => {
    expect(isRefusedForGood({ status: 400, body: fixtures.validation })).toBe(true);
    expect(isRefusedForGood({ status: 403, body: fixtures.invalidState })).toBe(true);
    expect(isRefusedForGood({ status: 404, body: { code: "NotFound", message: "Funding source not found." } })).toBe(true);
    expect(isRefusedForGood({ status: 429, body: { code: "TooManyRequests", message: "Slow down." } })).toBe(false);
    expect(isRefusedForGood({ status: 500, body: { code: "ServerError", message: "Oops." } })).toBe(false);
    expect(isRefusedForGood({ status: 400, body: "<html>" })).toBe(false);
    expect(isRefusedForGood({ networkCode: "ECONNRESET" })).toBe(false);
    expect(isRefusedForGood({ oauthError: "invalid_client" })).toBe(false);
  });

  it("finds the resource a create collided with", () => {
    expect(existingResourceHref({ status: 400, body: fixtures.duplicateBank }, API)).toBe(`${API}/funding-sources/024c25f9-3a6b-42ce-8ca5-7a8cee9ad5fd`);
    expect(existingResourceHref({ status: 400, body: fixtures.duplicateEmail }, API)).toBe(`${API}/customers/707177c3-bf15-4e7e-b37c-55c3898d9bf4`);
    expect(existingResourceHref({ status: 400, body: fixtures.validation }, API)).toBeUndefined();
    expect(existingResourceHref({ status: 403, body: fixtures.invalidState }, API)).toBeUndefined();
  });

  it("reduces the SDK's rejections to plain values", () => {
    const http = Object.assign(new Error("{}"), { status: 400, headers: {}, body: fixtures.validation });
    expect(plainFailure(http)).toEqual({ status: 400, body: fixtures.validation });
    expect(plainFailure(Object.assign(new Error("x"), { error: "invalid_client", error_description: "no" }))).toEqual({ oauthError: "invalid_client" });
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { name: "FetchError", type: "system", code: "ECONNREFUSED" });
    expect(plainFailure(refused)).toEqual({ networkCode: "ECONNREFUSED" });
    expect(plainFailure(Object.assign(new Error("bad json"), { name: "FetchError", type: "invalid-json" }))).toEqual({ networkCode: "invalid_response" });
    expect(plainFailure(new TypeError("boom"))).toEqual({ networkCode: "unexpected_error" });
    expect(plainFailure(undefined)).toEqual({ networkCode: "unexpected_error" });
  });
});
