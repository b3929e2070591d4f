import { Agent, request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { AppError, pingOp, resolveApiKeyOp } from "@payrail/contracts";
import { createInProcessBus, createInProcessTransport, handle } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { until } from "../../../test/support/until.ts";
import { start } from "../src/index.ts";

/**
 * One GET: its status, or the socket error's code. On a fresh connection unless an `agent` is
 * given (one that keeps connections alive, as a load balancer does).
 */
function get(url: string, headers: Record<string, string> = {}, agent: Agent | false = false): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode! }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

/**
 * The gateway's drain (SIGTERM): `/readyz` answers 503 at once, so a load balancer polling it
 * stops sending; requests are still served for DRAIN_DELAY_MS; then the listener closes and the
 * request in flight still gets its answer before the stop resolves.
 */
describe("draining the gateway", () => {
  const bus = createInProcessBus();
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const t of opened) await t.close();
  });

  it("turns /readyz to 503 first, serves during the delay, then closes and finishes what is in flight", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let resolving = 0;
    const service = createInProcessTransport({ logger: silentLogger(), bus });
    // The gateway's own calls may wait as long as the test holds one.
    const transport = createInProcessTransport({ logger: silentLogger(), bus, defaultTimeoutMs: 60_000 });
    opened.push(service, transport);
    await service.serve("identity", [
      handle(pingOp("identity"), async () => ({ service: "identity", ok: true as const })),
      // The request in flight: its api-key is resolved once the test lets it (then refused: any answer will do).
      handle(resolveApiKeyOp, async () => {
        resolving += 1;
        await held;
        throw new AppError("api_key_invalid", "unknown api-key");
      }),
    ]);
    const gateway = await start({
      transport,
      logger: silentLogger(),
      host: "127.0.0.1",
      port: 0,
      apiKeyCacheMs: 0,
      rateLimitPerMinute: 1_000,
      services: ["identity"],
      sandbox: true,
      drainDelayMs: 3_000,
    });
    expect(await get(`${gateway.url}/readyz`)).toEqual({ status: 200 });

    // On a kept-alive connection, as from a load balancer: the stop must not wait for it to go idle and time out.
    const keepAlive = new Agent({ keepAlive: true });
    const inFlight = get(`${gateway.url}/api/merchants/notices`, { "api-key": "sk_test_in_flight" }, keepAlive);
    await until("the request in flight to wait on identity", () => resolving === 1);
    let stopped = false;
    const stopping = gateway.stop().then(() => (stopped = true));

    // Draining: not ready, but still serving new requests until the delay is over.
    expect(await get(`${gateway.url}/readyz`)).toEqual({ status: 503 });
    expect(await get(`${gateway.url}/healthz`)).toEqual({ status: 200 });

    // Then the listener closes; the stop waits for the request it still runs.
    await until("the listener to close", async () => "error" in (await get(`${gateway.url}/healthz`)), 20_000);
    expect(stopped).toBe(false);
    release();
    expect(await inFlight).toEqual({ status: 401 });
    await stopping;
    expect(stopped).toBe(true);
    keepAlive.destroy();
  });
});
