import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../bin/listen.command.ts";
import { startServices, type Started } from "../../bin/wiring.ts";
import { embeddedVariant } from "../support/infra.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { startReceiver, verify, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";
import { freePort } from "../support/free-port.ts";


describe("payrail listen", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let webhooks: Started[];
  let receiver: Receiver;
  let api: string;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    stack = await startStack(variant);
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    webhooks = await startServices(["webhooks"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    await stack.app.listen({ port: 0, host: "127.0.0.1" });
    api = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
    merchant = await stack.merchant("Listener");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    for (const s of webhooks ?? []) await s.stop();
    await stack?.close();
    await variant.cleanup();
  });

  const testEvent = async (type: string) => {
    const reply = await stack.app.inject({ method: "POST", url: "/api/sandbox/events", payload: { type }, headers: { "api-key": merchant.apiKey } });
    return reply.json() as { id: string };
  };

  it("forwards each new event once, signed with the secret it prints, and not the events from before it started", async () => {
    const before = await testEvent("checkout.created");
    const lines: string[] = [];
    const controller = new AbortController();
    const running = listen({ api, apiKey: merchant.apiKey, forwardTo: receiver.url, intervalMs: 100, signal: controller.signal, log: (l) => lines.push(l) });
    await until("listen to be ready", () => lines.some((l) => l.includes("signing secret")));
    const secret = /(whsec_\S+)/.exec(lines.find((l) => l.includes("signing secret"))!)![1]!;

    const events = [await testEvent("transaction.completed"), await testEvent("refund.requested")];
    await until("both events forwarded", () => events.every((e) => receiver.of(e.id).length === 1));
    // Room for a second forward of either (or of the event from before): three of its 100 ms polls.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await running;

    expect(receiver.of(before.id)).toHaveLength(0);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((r) => (verify(secret, r) as { id: string }).id)).toEqual(events.map((e) => e.id));
    expect(lines).toContain(`--> transaction.completed [${events[0]!.id}]`);
    expect(lines.some((l) => l.startsWith(`<-- [200] POST ${receiver.url}`))).toBe(true);
  });

  it("says which URL failed and why, retries with growing waits, and delivers once the receiver is up", async () => {
    const port = await freePort();
    const forwardTo = `http://127.0.0.1:${port}/hooks`;

    const lines: string[] = [];
    const controller = new AbortController();
    const running = listen({ api, apiKey: merchant.apiKey, forwardTo, intervalMs: 100, retryDelaysMs: [200, 400, 800, 1_600, 3_200], signal: controller.signal, log: (l) => lines.push(l) });
    await until("listen to be ready", () => lines.some((l) => l.includes("signing secret")));
    const eventId = (await testEvent("refund.requested")).id;
    await until("two failed tries", () => lines.filter((l) => l.includes("failed")).length >= 2);

    const got: string[] = [];
    const receiver = createServer((req, res) => {
      got.push(String(req.headers["webhook-id"]));
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
    try {
      await until("the event delivered", () => got.length === 1);
      controller.abort();
      await running;
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    expect(got).toEqual([eventId]);
    expect(lines).toContain(`<-- POST ${forwardTo} failed: connection refused: nothing is listening there (ECONNREFUSED); retrying in 200 ms (try 2 of 6)`);
    expect(lines).toContain(`<-- POST ${forwardTo} failed: connection refused: nothing is listening there (ECONNREFUSED); retrying in 400 ms (try 3 of 6)`);
    expect(lines.some((l) => l.startsWith(`<-- [200] POST ${forwardTo}`))).toBe(true);
    expect(lines.join("\n")).not.toContain("fetch failed");
  });
});
