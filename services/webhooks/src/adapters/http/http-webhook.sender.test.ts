import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpWebhookSender, MAX_RESPONSE_BYTES } from "./http-webhook.sender.ts";

describe("HttpWebhookSender", () => {
  let server: Server;
  let port = 0;
  const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (req.url === "/big") res.end("x".repeat(MAX_RESPONSE_BYTES * 3));
        else if (req.url === "/hang") return;
        else if (req.url === "/redirect") res.writeHead(302, { location: "/ok" }).end();
        else res.writeHead(201).end("created");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const sender = new HttpWebhookSender();
  const send = (path: string, publicOnly = false, host = "127.0.0.1", timeoutMs = 2_000) =>
    sender.send({ url: `http://${host}:${port}${path}`, headers: { "webhook-id": "evt_1", "content-type": "application/json" }, body: '{"a":1}', timeoutMs, publicOnly });

  it("posts the body with the headers and answers the status and body, saying the answer came from a private address", async () => {
    const result = await send("/ok");
    expect(result).toMatchObject({ httpStatus: 201, responseBody: "created", fromPublicAddress: false, error: null });
    expect(seen.at(-1)).toMatchObject({ path: "/ok", body: '{"a":1}', headers: { "webhook-id": "evt_1" } });
  });

  it("reads at most 64 KiB of a response body", async () => {
    const result = await send("/big");
    expect(result.httpStatus).toBe(200);
    expect(result.responseBody).toHaveLength(MAX_RESPONSE_BYTES);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const result = await send("/hang", false, "127.0.0.1", 300);
    expect(result).toMatchObject({ httpStatus: null, error: "timed out after 300 ms" });
    // It waited its 300 ms (the error above says the timer ended it, not the receiver).
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("does not follow redirects: the 3xx is the answer", async () => {
    expect((await send("/redirect")).httpStatus).toBe(302);
  });

  it("refuses loopback in live mode, by IP literal and by a name resolving to it, without connecting", async () => {
    const before = seen.length;
    for (const host of ["127.0.0.1", "localhost"]) {
      const result = await send("/ok", true, host);
      expect(result).toMatchObject({ httpStatus: null, error: expect.stringMatching(/may not be sent to/) });
    }
    expect(seen).toHaveLength(before);
  });

  it("refuses IPv6 forms of loopback addresses on the connection, even without the registration's check", async () => {
    for (const host of ["[::7f00:1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]"]) {
      const result = await send("/ok", true, host);
      expect(result, host).toMatchObject({ httpStatus: null, error: expect.stringMatching(/may not be sent to/) });
    }
  });

  it("answers a connection failure as an error, never a throw", async () => {
    const result = await sender.send({ url: "http://127.0.0.1:1/x", headers: {}, body: "{}", timeoutMs: 2_000, publicOnly: false });
    expect(result).toMatchObject({ httpStatus: null, error: expect.stringContaining("ECONNREFUSED") });
  });
});
