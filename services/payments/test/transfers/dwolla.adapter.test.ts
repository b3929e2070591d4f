import { Writable } from "node:stream";
import { AppError } from "@payrail/contracts";
import { createLogger } from "@payrail/runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DwollaTransferAdapter, type DwollaConfig } from "../../src/adapters/dwolla/dwolla.adapter.ts";
import { TransferRefused } from "../../src/domain/transfers/ports/transfer.port.ts";
import { startFakeDwolla, type FakeDwolla } from "./support/fake-dwolla.server.ts";

let dwolla: FakeDwolla;
let logs: string[];
const userId = () => crypto.randomUUID().replaceAll("-", "");

function adapter(overrides: Partial<DwollaConfig> = {}): DwollaTransferAdapter {
  const destination = new Writable({ write: (chunk, _enc, done) => (logs.push(String(chunk)), done()) });
  const config: DwollaConfig = { key: dwolla.key, secret: dwolla.secret, env: "sandbox", baseUrl: dwolla.url, webhookSecret: "whsec", ...overrides };
  return new DwollaTransferAdapter(config, createLogger({ level: "debug", destination }));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** A customer with a funding source, the way the payment flow builds the source of a transfer. */
async function fundedCustomer(a: DwollaTransferAdapter) {
  const { customerUrl } = await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
  const token = `processor-sandbox-${crypto.randomUUID()}`;
  return a.createFundingSource({ customerUrl, processorToken: token, name: "Plaid Checking 0000", idempotencyKey: `fs-${token}` });
}

beforeAll(async () => {
  dwolla = await startFakeDwolla();
});
afterAll(() => dwolla.close());
beforeEach(() => {
  logs = [];
});

describe("Dwolla adapter on the dwolla-v2 SDK against a local Dwolla", () => {
  it("fetches one client-credentials token and sends it as a Bearer token on every call", async () => {
    const a = adapter();
    const before = dwolla.tokenRequests;
    await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
    await a.ensureCustomer({ userId: userId(), phone: "+15551234568" });
    expect(dwolla.tokenRequests - before).toBe(1);
    const last = dwolla.requests.at(-1)!;
    expect(last.headers.authorization).toMatch(/^Bearer .+/);
    expect(last.headers.accept).toBe("application/vnd.dwolla.v1.hal+json");
  });

  it("creates an unverified customer with an Idempotency-Key derived from our user id", async () => {
    const id = userId();
    const { customerUrl } = await adapter().ensureCustomer({ userId: id, phone: "+15551234567" });
    expect(customerUrl).toMatch(new RegExp(`^${dwolla.url}/customers/[0-9a-f-]{36}$`));
    const req = dwolla.requests.at(-1)!;
    expect(req).toMatchObject({ method: "POST", path: "/customers" });
    expect(req.headers["idempotency-key"]).toBe(`payrail-customer-${id}`);
    expect(req.body).toEqual({ firstName: "Payrail", lastName: "Customer", email: `user-${id}@customers.payrail.example` });
  });

  it("answers the same customer when called again, even after Dwolla forgot the idempotency key", async () => {
    const a = adapter();
    const input = { userId: userId(), phone: "+15551234567" };
    const first = await a.ensureCustomer(input);
    expect(await a.ensureCustomer(input)).toEqual(first);
    dwolla.forgetIdempotencyKeys();
    // The email collides now; Dwolla's Duplicate error links the existing customer.
    expect(await a.ensureCustomer(input)).toEqual(first);
    expect([...dwolla.customers.values()].filter((c) => c.email.includes(input.userId))).toHaveLength(1);
  });

  it("sends a receive-only type when configured so", async () => {
    await adapter({ customerType: "receive-only" }).ensureCustomer({ userId: userId(), phone: "+15551234567" });
    expect(dwolla.requests.at(-1)!.body).toMatchObject({ type: "receive-only" });
  });

  it("creates a funding source from a Plaid processor token and reads its fingerprint", async () => {
    const a = adapter();
    const { customerUrl } = await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
    const { fundingSourceUrl, fingerprint } = await a.createFundingSource({ customerUrl, processorToken: "processor-sandbox-1", name: "Plaid Checking 0000", idempotencyKey: "fs-1" });
    expect(fundingSourceUrl).toMatch(new RegExp(`^${dwolla.url}/funding-sources/[0-9a-f-]{36}$`));
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const read = dwolla.requests.at(-1)!;
    expect(read).toMatchObject({ method: "GET", path: `/funding-sources/${fundingSourceUrl.split("/").at(-1)}` });
    const req = dwolla.requests.at(-2)!;
    expect(req.path).toBe(`/customers/${customerUrl.split("/").at(-1)}/funding-sources`);
    expect(req.body).toEqual({ plaidToken: "processor-sandbox-1", name: "Plaid Checking 0000" });
    expect(req.headers["idempotency-key"]).toBe("fs-1");
  });

  it("answers the existing funding source when Dwolla says the bank already exists", async () => {
    const a = adapter();
    const { customerUrl } = await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
    const input = { customerUrl, processorToken: "processor-sandbox-dup", name: "Checking", idempotencyKey: "fs-a" };
    const first = await a.createFundingSource(input);
    expect(await a.createFundingSource({ ...input, idempotencyKey: "fs-b" })).toEqual(first);
  });

  it("maps a ValidationError on the funding source to provider_error with Dwolla's code and the field", async () => {
    const a = adapter();
    const { customerUrl } = await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
    const err = await failure(a.createFundingSource({ customerUrl, processorToken: "not-a-processor-token", name: "x", idempotencyKey: "fs-bad" }));
    expect(err).toMatchObject({ code: "provider_error", providerCode: "ValidationError", status: 502 });
    expect(err.message).toContain("/plaidToken");
    expect(logs.join("")).not.toContain("not-a-processor-token");
  });

  it("creates a transfer with the Idempotency-Key, the amount in dollars and the id from Location", async () => {
    const a = adapter();
    const [source, destination] = [await fundedCustomer(a), await fundedCustomer(a)];
    const input = {
      sourceFundingSource: source.fundingSourceUrl,
      destinationFundingSource: destination.fundingSourceUrl,
      amountCents: 10_750,
      currency: "USD",
      idempotencyKey: "transfer-chk_1",
      metadata: { transactionUuid: "sc-1" },
    };
    const created = await a.createTransfer(input);
    expect(created.transferUrl).toBe(`${dwolla.url}/transfers/${created.transferId}`);
    expect(created).toMatchObject({ status: "pending", transferId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const req = dwolla.requests.at(-1)!;
    expect(req.headers["idempotency-key"]).toBe("transfer-chk_1");
    expect(req.body).toEqual({
      _links: { source: { href: source.fundingSourceUrl }, destination: { href: destination.fundingSourceUrl } },
      amount: { value: "107.50", currency: "USD" },
      metadata: { transactionUuid: "sc-1" },
      correlationId: "transfer-chk_1",
    });
    const transfersBefore = dwolla.transfers.size;
    expect(await a.createTransfer(input)).toEqual(created);
    expect(dwolla.transfers.size).toBe(transfersBefore);
  });

  it("finds a transfer by its idempotency key (the correlationId) among a customer's transfers, and answers null for none", async () => {
    const a = adapter();
    const consumer = await a.ensureCustomer({ userId: userId(), phone: "+15551234567" });
    const token = `processor-sandbox-${crypto.randomUUID()}`;
    const source = await a.createFundingSource({ customerUrl: consumer.customerUrl, processorToken: token, name: "Plaid Checking 0000", idempotencyKey: `fs-${token}` });
    const destination = await fundedCustomer(a);
    const key = `sc-${crypto.randomUUID()}`;
    const created = await a.createTransfer({ sourceFundingSource: source.fundingSourceUrl, destinationFundingSource: destination.fundingSourceUrl, amountCents: 500, currency: "USD", idempotencyKey: key });
    // Past the 24-hour window Dwolla no longer knows the key: only the search finds the transfer.
    dwolla.forgetIdempotencyKeys();
    expect(await a.findTransfer({ idempotencyKey: key, customerUrl: consumer.customerUrl })).toEqual({ ...created, status: "pending" });
    const req = dwolla.requests.at(-1)!;
    expect(req).toMatchObject({ method: "GET", path: `/customers/${consumer.customerUrl.split("/").at(-1)}/transfers` });
    expect(new URLSearchParams(req.query).get("correlationId")).toBe(key);
    expect(await a.findTransfer({ idempotencyKey: "sc-none", customerUrl: consumer.customerUrl })).toBeNull();
  });

  it("finds a transfer with no consumer (a merchant payout) among the transfers of its source's owner: the platform account, or a customer", async () => {
    const a = adapter();
    const merchantBank = dwolla.addAccountFundingSource();
    // The merchant's money held on the platform account, paid out to its bank there.
    const held = dwolla.addAccountFundingSource();
    const key = `po_${crypto.randomUUID().replaceAll("-", "")}`;
    const created = await a.createTransfer({ sourceFundingSource: held, destinationFundingSource: merchantBank, amountCents: 125_000, currency: "USD", idempotencyKey: key });
    dwolla.forgetIdempotencyKeys();
    expect(await a.findTransfer({ idempotencyKey: key, customerUrl: null, fundingSourceUrl: held })).toEqual({ ...created, status: "pending" });
    const [read, search] = dwolla.requests.slice(-2);
    expect(read).toMatchObject({ method: "GET", path: `/funding-sources/${held.split("/").at(-1)}` });
    expect(search).toMatchObject({ method: "GET", path: `/accounts/${dwolla.accountId}/transfers` });
    expect(new URLSearchParams(search!.query).get("correlationId")).toBe(key);
    expect(await a.findTransfer({ idempotencyKey: "po_none", customerUrl: null, fundingSourceUrl: held })).toBeNull();

    // A merchant whose balance is a customer's funding source: that customer's transfers are searched.
    const balance = await fundedCustomer(a);
    const fromCustomer = `po_${crypto.randomUUID().replaceAll("-", "")}`;
    const second = await a.createTransfer({ sourceFundingSource: balance.fundingSourceUrl, destinationFundingSource: merchantBank, amountCents: 900, currency: "USD", idempotencyKey: fromCustomer });
    expect(await a.findTransfer({ idempotencyKey: fromCustomer, customerUrl: null, fundingSourceUrl: balance.fundingSourceUrl })).toEqual({ ...second, status: "pending" });
    expect(dwolla.requests.at(-1)!.path).toMatch(/^\/customers\/[0-9a-f-]{36}\/transfers$/);
  });

  it("refuses to search for a transfer with neither a customer nor a funding source, without calling Dwolla", async () => {
    const count = dwolla.requests.length;
    expect(await failure(adapter().findTransfer({ idempotencyKey: "po_x", customerUrl: null }))).toMatchObject({ code: "parameter_invalid" });
    expect(await failure(adapter().findTransfer({ idempotencyKey: "po_x", customerUrl: null, fundingSourceUrl: null }))).toMatchObject({ code: "parameter_invalid" });
    expect(dwolla.requests.length).toBe(count);
  });

  it("says a transfer Dwolla refuses is refused for good, and one it failed to serve is not", async () => {
    const a = adapter();
    const [source, destination] = [await fundedCustomer(a), await fundedCustomer(a)];
    const input = { sourceFundingSource: source.fundingSourceUrl, destinationFundingSource: destination.fundingSourceUrl, amountCents: 100, currency: "USD" };
    const refused = await failure(a.createTransfer({ ...input, sourceFundingSource: `${dwolla.url}/funding-sources/${crypto.randomUUID()}`, idempotencyKey: "t-refused" }));
    expect(refused).toBeInstanceOf(TransferRefused);
    expect(refused).toMatchObject({ code: "provider_error", providerCode: "ValidationError" });
    dwolla.respondNext(503, { code: "ServiceUnavailable", message: "Try again." });
    const unavailable = await failure(a.createTransfer({ ...input, idempotencyKey: "t-unavailable" }));
    expect(unavailable).not.toBeInstanceOf(TransferRefused);
    expect(unavailable).toMatchObject({ code: "provider_error", providerCode: "ServiceUnavailable" });
  });

  it("reads transfer statuses through the explicit map, with the ACH return code for failures", async () => {
    const a = adapter();
    const [source, destination] = [await fundedCustomer(a), await fundedCustomer(a)];
    const { transferId } = await a.createTransfer({
      sourceFundingSource: source.fundingSourceUrl,
      destinationFundingSource: destination.fundingSourceUrl,
      amountCents: 100,
      currency: "USD",
      idempotencyKey: `t-${crypto.randomUUID()}`,
    });
    const t = dwolla.transfers.get(transferId)!;
    expect(await a.getTransfer(transferId)).toEqual({ transferId, status: "pending" });
    t.status = "processed";
    expect(await a.getTransfer(transferId)).toEqual({ transferId, status: "completed" });
    t.status = "cancelled";
    expect(await a.getTransfer(transferId)).toEqual({ transferId, status: "cancelled" });
    t.status = "failed";
    expect(await a.getTransfer(transferId)).toEqual({ transferId, status: "failed" });
    t.failureCode = "R01";
    expect(await a.getTransfer(transferId.toUpperCase())).toEqual({ transferId, status: "failed", failureCode: "R01" });
    expect(dwolla.requests.at(-1)!.path).toBe(`/transfers/${transferId}/failure`);
    t.status = "reclaimed";
    expect(await a.getTransfer(transferId)).toEqual({ transferId, status: "pending" });
    expect(logs.join("")).toContain("unknown Dwolla transfer status");
    expect(logs.join("")).toContain("reclaimed");
  });

  it("turns Dwolla's error bodies into provider_error with Dwolla's code", async () => {
    const a = adapter();
    dwolla.respondNext(403, { code: "InvalidResourceState", message: "Resource cannot be modified." });
    expect(await failure(a.getTransfer("9a6e2b0c-0000-4000-8000-000000000001"))).toMatchObject({ code: "provider_error", providerCode: "InvalidResourceState" });
    expect(await failure(a.getTransfer("9a6e2b0c-0000-4000-8000-000000000002"))).toMatchObject({ code: "provider_error", providerCode: "NotFound" });
    dwolla.respondNext(500, "<html>Bad gateway</html>");
    expect(await failure(a.getTransfer("9a6e2b0c-0000-4000-8000-000000000003"))).toMatchObject({ code: "provider_error", providerCode: "http_500" });
    dwolla.respondNext(429, { code: "TooManyRequests", message: "Slow down." });
    expect(await failure(a.getTransfer("9a6e2b0c-0000-4000-8000-000000000004"))).toMatchObject({ providerCode: "TooManyRequests" });
  });

  it("refuses a malformed transfer id or customer URL without calling Dwolla", async () => {
    const count = dwolla.requests.length;
    expect(await failure(adapter().getTransfer("../customers/x"))).toMatchObject({ code: "parameter_invalid" });
    const fs = { customerUrl: `${dwolla.url}/accounts/x`, processorToken: "processor-1", name: "x", idempotencyKey: "k" };
    expect(await failure(adapter().createFundingSource(fs))).toMatchObject({ code: "parameter_invalid", param: "customerUrl" });
    expect(dwolla.requests.length).toBe(count);
  });

  it("reports refused credentials as provider_error invalid_client, without logging the secret", async () => {
    const err = await failure(adapter({ secret: "wrong-secret-value" }).ensureCustomer({ userId: userId(), phone: "+15551234567" }));
    expect(err).toMatchObject({ code: "provider_error", providerCode: "invalid_client" });
    expect(logs.join("")).not.toContain("wrong-secret-value");
  });

  it("reports no answer as provider_error network_error: connection refused, and a timeout", async () => {
    const closed = await startFakeDwolla();
    await closed.close();
    const refused = await failure(adapter({ baseUrl: closed.url }).ensureCustomer({ userId: userId(), phone: "+15551234567" }));
    expect(refused).toMatchObject({ code: "provider_error", providerCode: "network_error" });

    const a = adapter({ timeoutMs: 300 });
    await a.ensureCustomer({ userId: userId(), phone: "+15551234567" }); // token fetched before the hang
    dwolla.hangNext();
    const timedOut = await failure(a.ensureCustomer({ userId: userId(), phone: "+15551234567" }));
    expect(timedOut).toMatchObject({ providerCode: "network_error" });
    expect(timedOut.message).toContain("timeout");
    await expect(a.ensureCustomer({ userId: userId(), phone: "+15551234567" })).resolves.toHaveProperty("customerUrl");
  });


  it("initiates micro-deposits on the funding source with our idempotency key, and verifies the two amounts (a wrong pair is `wrong`, not an error)", async () => {
    const a = adapter();
    const { fundingSourceUrl } = await fundedCustomer(a);
    const deposits = await a.initiateMicroDeposits({ fundingSourceUrl, idempotencyKey: "md-key-round-1" });
    const id = fundingSourceUrl.split("/").at(-1);
    expect(deposits).toEqual({ reference: `${dwolla.url}/funding-sources/${id}/micro-deposits` });
    expect(dwolla.requests.at(-1)).toMatchObject({ method: "POST", path: `/funding-sources/${id}/micro-deposits`, headers: { "idempotency-key": "md-key-round-1" } });
    expect(await a.verifyMicroDeposits({ fundingSourceUrl, reference: deposits.reference, amountsCents: [1, 2] })).toBe("wrong");
    expect(await a.verifyMicroDeposits({ fundingSourceUrl, reference: deposits.reference, amountsCents: [9, 3] })).toBe("verified");
    expect(dwolla.requests.at(-1)?.body).toEqual({ amount1: { value: "0.09", currency: "USD" }, amount2: { value: "0.03", currency: "USD" } });
    const gone = await failure(a.verifyMicroDeposits({ fundingSourceUrl: `${dwolla.url}/funding-sources/${crypto.randomUUID()}`, reference: "x", amountsCents: [3, 9] }));
    expect(gone).toBeInstanceOf(TransferRefused);
  });
});
