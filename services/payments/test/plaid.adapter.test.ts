import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { AppError } from "@payrail/contracts";
import { createLogger, loadConfig } from "@payrail/runtime";
import { createEmbeddedStore } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBankData } from "../src/adapters/create-bank-data.ts";
import { PlaidBankDataAdapter } from "../src/adapters/plaid/plaid.adapter.ts";
import { PLAID_FIXTURES as F } from "../src/adapters/plaid/plaid.fixtures.ts";

const CLIENT_ID = "client-id-123";
const SECRET = "plaid-secret-never-logged";

/**
 * A local stand-in for Plaid's API on 127.0.0.1, answering its documented shapes, so the
 * official SDK's own code path (axios, headers, JSON) really runs against it.
 */
function plaidStandIn(): { server: Server; requests: { path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> }[] } {
  const requests: { path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as Record<string, unknown>;
      const path = req.url ?? "";
      requests.push({ path, headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
      };
      if (req.headers["plaid-client-id"] !== CLIENT_ID || req.headers["plaid-secret"] !== SECRET) return send(400, F.invalidApiKeys);
      if (req.method !== "POST") return send(404, {});
      if (path === "/link/token/create") {
        if ((body.user as { client_user_id?: string })?.client_user_id === "slow") return void setTimeout(() => send(200, F.linkTokenCreate), 1_000);
        if ((body.user as { client_user_id?: string })?.client_user_id === "html") return void res.writeHead(500).end("<html>oops</html>");
        return send(200, F.linkTokenCreate);
      }
      if (path === "/item/public_token/exchange") {
        return body.public_token === "public-sandbox-used" ? send(400, F.invalidPublicToken) : send(200, F.publicTokenExchange);
      }
      if (path === "/processor/token/create") {
        return body.account_id === "not-of-this-item" ? send(400, F.invalidAccountId) : send(200, F.processorTokenCreate);
      }
      send(404, { error_type: "INVALID_REQUEST", error_code: "NOT_FOUND", error_message: "no route", display_message: null, request_id: "x" });
    });
  });
  return { server, requests };
}

describe("Plaid adapter through the official SDK against a local stand-in", () => {
  const { server, requests } = plaidStandIn();
  const chunks: string[] = [];
  const logger = createLogger({
    level: "debug",
    destination: new Writable({ write: (c: Buffer, _e, done) => void (chunks.push(c.toString()), done()) }),
  });
  let baseUrl: string;
  const adapter = (overrides: Partial<ConstructorParameters<typeof PlaidBankDataAdapter>[0]> = {}) =>
    new PlaidBankDataAdapter({ clientId: CLIENT_ID, secret: SECRET, env: "sandbox", baseUrl, timeoutMs: 2_000, ...overrides }, logger);
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a failure"); }, (e: unknown) => e as AppError);

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("creates a link token with Plaid's headers and body, and reads the answer", async () => {
    const out = await adapter().createLinkToken({ clientUserId: "user-1", checkoutId: "chk_1" });
    expect(out).toEqual({ linkToken: F.linkTokenCreate.link_token, expiration: "2020-03-27T12:56:34.000Z", requestId: F.linkTokenCreate.request_id });
    const sent = requests.at(-1)!;
    expect(sent.path).toBe("/link/token/create");
    expect(sent.headers["plaid-version"]).toBe("2020-09-14");
    expect(sent.body).toMatchObject({ client_name: "Payrail", products: ["auth"], country_codes: ["US"], language: "en", user: { client_user_id: "user-1" } });
  });

  it("exchanges a public token and creates a Dwolla processor token", async () => {
    await expect(adapter().exchangePublicToken("public-sandbox-ok")).resolves.toEqual({
      accessToken: F.publicTokenExchange.access_token,
      itemId: F.publicTokenExchange.item_id,
      requestId: F.publicTokenExchange.request_id,
    });
    expect(requests.at(-1)!.body).toEqual({ public_token: "public-sandbox-ok" });
    const processor = await adapter().createProcessorToken({ accessToken: "access-sandbox-1", accountId: "acc-1", processor: "dwolla" });
    expect(processor).toEqual({ processorToken: F.processorTokenCreate.processor_token, requestId: F.processorTokenCreate.request_id });
    expect(requests.at(-1)!.body).toEqual({ access_token: "access-sandbox-1", account_id: "acc-1", processor: "dwolla" });
  });

  it("makes INVALID_PUBLIC_TOKEN a 400 on public_token", async () => {
    const err = await failure(adapter().exchangePublicToken("public-sandbox-used"));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "parameter_invalid", status: 400, param: "public_token", providerCode: "INVALID_PUBLIC_TOKEN" });
  });

  it("makes Plaid's other refusals 502 provider_error with Plaid's error_code", async () => {
    expect(await failure(adapter({ secret: "wrong" }).createLinkToken({ clientUserId: "u", checkoutId: "c" }))).toMatchObject({
      code: "provider_error",
      status: 502,
      providerCode: "INVALID_API_KEYS",
    });
    expect(await failure(adapter().createProcessorToken({ accessToken: "a", accountId: "not-of-this-item", processor: "dwolla" }))).toMatchObject({
      code: "provider_error",
      providerCode: "INVALID_ACCOUNT_ID",
    });
  });

  it("makes a non-Plaid answer, a timeout and a refused connection 502s", async () => {
    expect(await failure(adapter().createLinkToken({ clientUserId: "html", checkoutId: "c" }))).toMatchObject({ code: "provider_error", providerCode: undefined });
    expect(await failure(adapter({ timeoutMs: 200 }).createLinkToken({ clientUserId: "slow", checkoutId: "c" }))).toMatchObject({ code: "provider_error" });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await failure(adapter({ baseUrl: `http://127.0.0.1:${port}` }).exchangePublicToken("public-sandbox-ok"))).toMatchObject({ code: "provider_error" });
  });

  it("never logs the secret or a token, even for failed calls", async () => {
    await failure(adapter().exchangePublicToken("public-sandbox-used"));
    await failure(adapter({ secret: "wrong-secret-also-private" }).exchangePublicToken("public-sandbox-ok"));
    const logs = chunks.join("");
    expect(logs).toContain("plaid call failed");
    expect(logs).toContain("INVALID_PUBLIC_TOKEN");
    for (const secret of [SECRET, "wrong-secret-also-private", "public-sandbox-used", "public-sandbox-ok", F.publicTokenExchange.access_token]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe("bank-data provider selection", () => {
  it("uses the sandbox simulator by default and Plaid in live mode, which needs credentials", async () => {
    const store = await createEmbeddedStore({ logger: createLogger({ level: "silent" }) });
    const logger = createLogger({ level: "silent" });
    expect((await createBankData(loadConfig({}), store, logger)).provider).toBe("sandbox");
    await expect(createBankData(loadConfig({ PROVIDERS: "live" }), store, logger)).rejects.toThrow(/PLAID_CLIENT_ID and PLAID_SECRET/);
    const live = await createBankData(loadConfig({ PROVIDERS: "live", PLAID_CLIENT_ID: "id", PLAID_SECRET: "s", PLAID_ENV: "production" }), store, logger);
    expect(live.provider).toBe("plaid");
    expect(live.createSandboxPublicToken).toBeUndefined();
    expect(() => loadConfig({ PLAID_ENV: "development" })).toThrow(/PLAID_ENV/);
    await store.close();
  });
});
