import { describe, expect, it, vi } from "vitest";
import { AppError, type Principal } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { JsonText, type Transport } from "../../src/index.ts";
import { anonymousCtx, echoHandlers, failEcho, pingNobody, sayEcho } from "./echo.operations.ts";
import { freshWorldPerTest } from "./fresh-world.ts";
import { memoryLogger } from "./memory-logger.ts";

/** One isolated "network" (a broker with a fresh queue prefix, or a fresh bus). */
export interface RpcWorld {
  /** A new transport on this world: a process of its own, as far as the test knows. */
  transport(options?: { logger?: Logger }): Promise<Transport>;
  /** Closes every transport made here and removes what the world left behind. */
  dispose(): Promise<void>;
}

/** Rejection of `promise` as an AppError (fails the test if it resolves or throws otherwise). */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/**
 * The behaviour every Transport must share, whatever carries the messages. Each test gets
 * its own world so that nothing leaks between tests.
 */
export function describeRpcContract(name: string, createWorld: () => Promise<RpcWorld>): void {
  describe(`RPC contract over ${name}`, () => {
    const world = freshWorldPerTest(createWorld);

    async function echoService(instance = "a", logger?: Logger, ran?: string[]): Promise<Transport> {
      const server = await world().transport(logger ? { logger } : {});
      await server.serve("echo", echoHandlers(instance, ran));
      return server;
    }

    it("returns the handler's result to the caller", async () => {
      await echoService();
      const client = await world().transport();
      const reply = await client.call(sayEcho, { text: "hello" }, anonymousCtx);
      expect(reply).toMatchObject({ text: "hello", instance: "a", delayMs: 0 });
      expect(client.isReady()).toBe(true);
    });

    it("answers a caller that asks for JSON text with the handler's result or its JSON, and errors as errors", async () => {
      await echoService();
      const client = await world().transport();
      const reply = await client.call(sayEcho, { text: "hello ✓" }, anonymousCtx, { asJsonText: true });
      // RabbitMQ hands the server's JSON over unparsed; the in-process bus the value itself.
      const value: unknown = reply instanceof JsonText ? JSON.parse(reply.bytes.toString("utf8")) : reply;
      expect(value).toMatchObject({ text: "hello ✓", instance: "a", delayMs: 0 });
      expect(JSON.parse(JSON.stringify(reply))).toEqual(value);
      const err = await appErrorOf(client.call(failEcho, { mode: "app" }, anonymousCtx, { asJsonText: true }));
      expect(err.code).toBe("checkout_closed");
    });

    it("answers an invalid payload with a 400 code naming the first bad field", async () => {
      await echoService();
      const client = await world().transport();
      const err = await appErrorOf(client.call(sayEcho, { text: "x", nested: { amount: "ten" } } as never, anonymousCtx));
      expect(err.code).toBe("parameter_invalid");
      expect(err.status).toBe(400);
      expect(err.param).toBe("nested.amount");
    });

    it("passes a handler's AppError through with its code, message and param", async () => {
      await echoService();
      const client = await world().transport();
      const err = await appErrorOf(client.call(failEcho, { mode: "app" }, anonymousCtx));
      expect(err.toPayload()).toEqual({ code: "checkout_closed", message: "Checkout is closed", param: "checkout_id" });
    });

    it("turns any other throw into internal_error, logging the stack but never sending it", async () => {
      const { logger, lines } = memoryLogger();
      await echoService("a", logger);
      const client = await world().transport();
      const err = await appErrorOf(client.call(failEcho, { mode: "crash" }, anonymousCtx));
      expect(err.code).toBe("internal_error");
      expect(JSON.stringify(err.toPayload())).not.toMatch(/hunter2|\bat /);
      expect(lines()).toContain("RPC handler failed");
      expect(lines()).toMatch(/hunter2 rejected\\n\s+at /);
    });

    it("fails with service_timeout when no reply comes in time, and drops the late reply", async () => {
      await echoService();
      const client = await world().transport();
      const err = await appErrorOf(client.call(sayEcho, { text: "slow", delayMs: 600 }, anonymousCtx, { timeoutMs: 300 }));
      expect(err.code).toBe("service_timeout");
      await new Promise((resolve) => setTimeout(resolve, 500)); // let the late reply arrive
      await expect(client.call(sayEcho, { text: "after" }, anonymousCtx)).resolves.toMatchObject({ text: "after" });
    });

    it("does not run a request that reaches its server after its deadline, and counts it", async () => {
      const { logger, lines } = memoryLogger();
      const ran: string[] = [];
      const server = await echoService("a", logger, ran);
      const client = await world().transport();
      const call = appErrorOf(client.call(sayEcho, { text: "too late" }, anonymousCtx, { timeoutMs: 50 }));
      // Block this process past the deadline: the server (here too) only gets to the request
      // afterwards, as a service that is behind would.
      const until = Date.now() + 150;
      while (Date.now() < until);
      expect((await call).code).toBe("service_timeout");
      await vi.waitFor(() => expect(server.stats().expiredRequests).toBe(1));
      expect(ran).toEqual([]);
      expect(lines()).toContain("skipped RPC request past its deadline");
      expect(lines()).toContain('"requestId":"req_test"');
      // The server is not stuck: the next call, within its deadline, runs.
      await expect(client.call(sayEcho, { text: "in time" }, anonymousCtx)).resolves.toMatchObject({ text: "in time" });
      expect(ran).toEqual(["in time"]);
      expect(server.stats().expiredRequests).toBe(1);
    });

    it("runs a request that arrives within its deadline, however short", async () => {
      const ran: string[] = [];
      const server = await echoService("a", undefined, ran);
      const client = await world().transport();
      await expect(client.call(sayEcho, { text: "prompt" }, anonymousCtx, { timeoutMs: 1_000 })).resolves.toMatchObject({ text: "prompt" });
      expect(ran).toEqual(["prompt"]);
      expect(server.stats().expiredRequests).toBe(0);
    });

    it("fails with service_unavailable, not a timeout, when nobody serves the operation", async () => {
      await echoService();
      const client = await world().transport();
      const err = await appErrorOf(client.call(pingNobody, {}, anonymousCtx, { timeoutMs: 10_000 }));
      expect(err.code).toBe("service_unavailable");
      expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    });

    it("answers 200 concurrent calls, each with its own reply", async () => {
      await echoService();
      const client = await world().transport();
      const texts = Array.from({ length: 200 }, (_, i) => `m${i}`);
      const replies = await Promise.all(texts.map((text, i) => client.call(sayEcho, { text, delayMs: i % 7 }, anonymousCtx)));
      expect(replies.map((r) => r.text)).toEqual(texts);
    });

    it("hands the requestId and the principal to the handler", async () => {
      await echoService();
      const client = await world().transport();
      const principal: Principal = { kind: "merchant", merchantId: "mer_1", keyPrefix: "sk_test_ab", livemode: false };
      const reply = await client.call(sayEcho, { text: "who" }, { requestId: "req_42", principal });
      expect(reply.requestId).toBe("req_42");
      expect(reply.principal).toEqual(principal);
    });

    it("shares calls between several instances of one service", async () => {
      await echoService("a");
      await echoService("b");
      const client = await world().transport();
      const replies = await Promise.all(Array.from({ length: 40 }, () => client.call(sayEcho, { text: "lb", delayMs: 10 }, anonymousCtx)));
      const counts = new Map<string, number>();
      for (const { instance } of replies) counts.set(instance, (counts.get(instance) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual(["a", "b"]);
    });

    it("lets a running handler finish and reply when its server closes", async () => {
      const ran: string[] = [];
      const server = await echoService("a", undefined, ran);
      const client = await world().transport();
      const call = client.call(sayEcho, { text: "draining", delayMs: 300 }, anonymousCtx);
      await vi.waitFor(() => expect(ran, "the handler to be running").toContain("draining"), { timeout: 15_000 });
      await server.close();
      await expect(call).resolves.toMatchObject({ text: "draining" });
    });

    it("fails calls with service_unavailable once the caller's transport is closed", async () => {
      await echoService();
      const client = await world().transport();
      await client.close();
      expect(client.isReady()).toBe(false);
      const err = await appErrorOf(client.call(sayEcho, { text: "late" }, anonymousCtx));
      expect(err.code).toBe("service_unavailable");
    });
  });
}
