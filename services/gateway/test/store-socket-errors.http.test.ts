import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { brokerVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

// The services on RabbitMQ and the Mongo-wire server of MONGODB_URL (a throwaway container's
// port would not be known here): the store's sockets are the only ones to that port.
const mongoUrl = process.env["MONGODB_URL"];
const variant = mongoUrl ? await brokerVariant() : undefined;

/**
 * While on, every write on a socket to the database's port fails as a write to a server that
 * went away does: the socket's buffer is full (write answers false) and the socket then errors
 * with EPIPE. The driver waits for `drain` and hands that error on as it is, not as a
 * MongoNetworkError, which is how a store outage once answered 500.
 */
function socketWriteFault(port: number): { on(): void; off(): void; restore(): void } {
  const write = net.Socket.prototype.write;
  let failing = false;
  net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
    if (failing && this.remotePort === port) {
      const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE", errno: -32, syscall: "write" });
      process.nextTick(() => this.destroy(epipe));
      return false;
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  return {
    on: () => void (failing = true),
    off: () => void (failing = false),
    restore: () => void (net.Socket.prototype.write = write),
  };
}

describe.skipIf(!variant || !!variant.skipReason)("a socket error between the services and a Mongo-wire store (MONGODB_URL)", () => {
  const fault = socketWriteFault(Number(new URL(mongoUrl ?? "mongodb://x").port || 27017));
  let stack: Stack;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startStack(variant!);
    apiKey = (await stack.merchant("Acme")).apiKey;
  });
  afterEach(() => fault.off());
  afterAll(async () => {
    fault.restore();
    await stack?.close();
    await variant?.cleanup();
  });

  const list = () => stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": apiKey } });
  const create = () => stack.app.inject({ method: "POST", url: "/api/merchants/checkout", headers: { "api-key": apiKey }, payload: sampleCheckout() });

  it("answers 503 with the error body and Retry-After while the store's socket writes fail with EPIPE, and 200 once they work", async () => {
    expect((await list()).statusCode).toBe(200);
    fault.on();
    for (const reply of [await list(), await create()]) {
      expect(reply.statusCode, reply.body).toBe(503);
      expect(reply.json()).toEqual({
        error: expect.objectContaining({ type: "api_error", code: "service_unavailable", message: expect.any(String), request_id: expect.any(String) }),
      });
      expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0);
    }
    fault.off();
    await eventually(async () => expect((await create()).statusCode).toBe(200));
    expect((await list()).json().data).toHaveLength(1);
  });
});
