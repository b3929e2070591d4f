import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, defineOperation } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { createAmqpTransport, handle, type Transport } from "../src/index.ts";
import { RPC_EXCHANGE } from "../src/amqp/rpc-topology.ts";
import { rabbitmqctlWorks, withRawChannel } from "./support/amqp-admin.ts";

const run = promisify(execFile);
const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canAdminister = broker.url !== undefined && (await rabbitmqctlWorks());

const echo = defineOperation("echo.say", z.object({ text: z.string() }), z.object({ text: z.string() }));
const ctx = { requestId: "req_test", principal: { kind: "anonymous" as const } };

/**
 * RPC requests go through the direct exchange `payrail.rpc` (rpc-topology.ts), which only
 * servers declare. On a broker where no server ever ran (a fresh vhost here), a call must fail
 * as "nobody serves it" without publishing to the missing exchange, which would close the
 * client's channel, and work as soon as a server has started.
 */
describe.skipIf(!canAdminister)("RPC through the payrail.rpc exchange", () => {
  const vhost = `payrail-rpc-${randomUUID().slice(0, 8)}`;
  let url: string;
  const opened: Transport[] = [];

  beforeAll(async () => {
    await run("rabbitmqctl", ["-q", "add_vhost", vhost]);
    await run("rabbitmqctl", ["-q", "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*"]);
    const u = new URL(broker.url!);
    u.pathname = `/${vhost}`;
    url = u.toString();
  });
  afterAll(async () => {
    await Promise.all(opened.map((t) => t.close()));
    await run("rabbitmqctl", ["-q", "delete_vhost", vhost]);
  });

  const transport = async () => {
    const t = await createAmqpTransport({ url, logger: silentLogger(), defaultTimeoutMs: 3_000, closeGraceMs: 200 });
    opened.push(t);
    return t;
  };

  it("answers service_unavailable before any server declared the exchange, then serves once one has, on the same client", async () => {
    const client = await transport();
    const err = await client.call(echo, { text: "early" }, ctx).catch((e: unknown) => e);
    // Answered, not timed out: waiting out the 3 s call timeout would end in service_timeout.
    expect(err instanceof AppError && err.code).toBe("service_unavailable");
    expect(client.isReady()).toBe(true); // the channel was not closed by a publish to a missing exchange

    const server = await transport();
    await server.serve("echo", [handle(echo, async ({ text }) => ({ text }))]);
    await expect(client.call(echo, { text: "later" }, ctx)).resolves.toEqual({ text: "later" });
    // The server bound its queue to the exchange, by the queue's name.
    await withRawChannel(url, async (channel) => {
      await channel.checkExchange(RPC_EXCHANGE);
      expect((await channel.checkQueue("echo.rpc")).consumerCount).toBe(1);
    });
  });
});
