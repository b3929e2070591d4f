import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connect } from "amqplib";
import { z } from "zod";
import { AppError, createMerchantOp, defineOperation, type DomainEvent, type Principal } from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import { createAmqpTransport, handle, type ReplyMode, type Transport, type TrustedSenders } from "@payrail/messaging";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { loadConfig, prefixedHexId, silentLogger } from "@payrail/runtime";
import { startServices } from "../bin/wiring.ts";
import { linkedCheckout } from "../services/gateway/test/support/payment-flow.ts";
import { rabbitmqctlWorks, readDefinitions, vhostWithDefinitions, type TestVhost } from "./support/broker-users.ts";
import { embeddedVariant } from "./support/infra.ts";
import type { Stack } from "./support/stack.ts";

/**
 * The broker trust boundary (issue 13, item 10) on the users and permissions compose gives
 * RabbitMQ (deploy/rabbitmq/definitions.json), in a vhost of the test's own: a service
 * accepts merchant and consumer principals only from the gateway's and the services' users
 * (a service passes on the principal it serves), the admin principal only from the gateway's
 * and the CLI's, and a service principal only from the services', by the `user_id` the
 * broker validates.
 */
const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canAdminister = broker.url !== undefined && (await rabbitmqctlWorks());

/** A made-up operation of the real checkout service (its queue is what checkout's user may consume). */
const whoAmI = defineOperation("checkout.trustProbe", z.object({}), z.object({ principal: z.string() }));
const DOMAIN_SERVICES = ["identity", "checkout", "payments", "refunds", "webhooks"] as const;
/** What compose sets (AMQP_GATEWAY_USERS, AMQP_SERVICE_USERS, AMQP_ADMIN_USERS). */
const POLICY: TrustedSenders = { gateway: ["payrail-gateway"], services: Object.fromEntries(DOMAIN_SERVICES.map((s) => [s, [`payrail-${s}`]])), admin: ["payrail-cli"] };

const MERCHANT: Principal = { kind: "merchant", merchantId: "mer_1", keyPrefix: "pk_test_1", livemode: false };
const CONSUMER: Principal = { kind: "user", userId: "usr_1", phone: "+15555550100" };
const ADMIN: Principal = { kind: "admin" };
const SERVICE: Principal = { kind: "service", service: "payments" };
const ANONYMOUS: Principal = { kind: "anonymous" };

describe("docker-compose.yml and deploy/rabbitmq/definitions.json agree", () => {
  const compose = readFileSync(new URL("../docker-compose.yml", import.meta.url), "utf8");
  const { users } = readDefinitions();

  it("every service logs in as its own user, with the password the definitions give it", () => {
    const logins = [...compose.matchAll(/^\s+AMQP_URL: amqp:\/\/([^:]+):([^@]+)@rabbitmq:5672$/gm)].map((m) => ({ name: m[1], password: m[2] }));
    expect(logins.map((l) => l.name).sort()).toEqual(["gateway", ...DOMAIN_SERVICES].map((s) => `payrail-${s}`).sort());
    for (const login of logins) expect(users).toContainEqual(expect.objectContaining(login));
  });

  it("the trusted users it names are the definitions' users, as this suite's policy has them", () => {
    const list = (name: string) => new RegExp(`^\\s+AMQP_${name}_USERS: (.+)$`, "m").exec(compose)?.[1]?.split(",");
    // AMQP_SERVICE_USERS is service:user, as the config reads it.
    const services = loadConfig({ AMQP_SERVICE_USERS: list("SERVICE")?.join(",") }).AMQP_SERVICE_USERS;
    expect({ gateway: list("GATEWAY"), services, admin: list("ADMIN") }).toEqual(POLICY);
    for (const name of [...POLICY.gateway, ...Object.values(POLICY.services).flat(), ...POLICY.admin]) expect(users.map((u) => u.name)).toContain(name);
  });
});

describe.skipIf(!canAdminister)("broker trust boundary (deploy/rabbitmq/definitions.json)", () => {
  let vhost: TestVhost;
  let opened: Transport[] = [];
  const ran: string[] = [];

  beforeAll(async () => {
    vhost = await vhostWithDefinitions(broker.url!, ["payrail-gateway", "payrail-cli", ...DOMAIN_SERVICES.map((s) => `payrail-${s}`)]);
  }, 60_000);
  afterAll(() => vhost?.remove());
  afterEach(async () => {
    await Promise.all(opened.map((t) => t.close()));
    opened = [];
    ran.length = 0;
  });

  async function transportAs(user: string, replyMode: ReplyMode = "exclusive-queue"): Promise<Transport> {
    const t = await createAmqpTransport({ url: vhost.url(user), logger: silentLogger(), replyMode, trustedSenders: POLICY, defaultTimeoutMs: 5_000, closeGraceMs: 500 });
    opened.push(t);
    expect(t.isReady()).toBe(true); // the definitions let the user in, with what connecting declares
    return t;
  }

  async function checkoutServer(): Promise<Transport> {
    const server = await transportAs("payrail-checkout");
    await server.serve("checkout", [
      handle(whoAmI, async (_payload, ctx) => {
        ran.push(ctx.principal.kind);
        return { principal: ctx.principal.kind };
      }),
    ]);
    return server;
  }

  async function outcome(client: Transport, principal: Principal): Promise<string> {
    try {
      return (await client.call(whoAmI, {}, { requestId: prefixedHexId("req_"), principal })).principal;
    } catch (err) {
      return err instanceof AppError ? err.code : String(err);
    }
  }

  it.each(["exclusive-queue", "direct"] satisfies ReplyMode[])("the gateway's user acts for merchants, consumers and admin (%s replies)", async (replyMode) => {
    await checkoutServer();
    const gateway = await transportAs("payrail-gateway", replyMode);
    for (const principal of [MERCHANT, CONSUMER, ADMIN, ANONYMOUS]) expect(await outcome(gateway, principal)).toBe(principal.kind);
    expect(await outcome(gateway, SERVICE)).toBe("permission_denied"); // the gateway never calls internal operations
  });

  it("the CLI's user may act as admin only; a service's user acts as a service and passes on merchants and consumers, never admin", async () => {
    await checkoutServer();
    const cli = await transportAs("payrail-cli");
    expect(await outcome(cli, ADMIN)).toBe("admin");
    expect(await outcome(cli, MERCHANT)).toBe("permission_denied");
    expect(await outcome(cli, CONSUMER)).toBe("permission_denied");
    expect(await outcome(cli, SERVICE)).toBe("permission_denied"); // no refund payout from the CLI
    const payments = await transportAs("payrail-payments");
    expect(await outcome(payments, SERVICE)).toBe("service");
    expect(await outcome(payments, MERCHANT)).toBe("merchant");
    expect(await outcome(payments, CONSUMER)).toBe("user");
    expect(await outcome(payments, ADMIN)).toBe("permission_denied");
    expect(ran).toEqual(["admin", "service", "merchant", "user"]); // a refused request runs nothing
  });

  it("refuses a forged envelope: without user_id it is answered permission_denied; claiming the gateway's user, the broker drops it", async () => {
    await checkoutServer();
    const forged = (principal: Principal) =>
      Buffer.from(JSON.stringify({ pattern: whoAmI.pattern, requestId: "req_forged", principal, payload: {} }));
    const model = await connect(vhost.url("payrail-cli"));
    try {
      const channel = await model.createChannel();
      const replies: unknown[] = [];
      await channel.consume("amq.rabbitmq.reply-to", (m) => m && replies.push(JSON.parse(m.content.toString())), { noAck: true });
      channel.publish("payrail.rpc", "checkout.rpc", forged(MERCHANT), { correlationId: "c1", replyTo: "amq.rabbitmq.reply-to" });
      await vi.waitFor(() => expect(replies).toHaveLength(1));
      expect(replies[0]).toMatchObject({ ok: false, error: { code: "permission_denied" } });

      // RabbitMQ validates user_id against the connection's user: the lie closes the channel.
      const closed = new Promise<Error>((resolve) => channel.on("error", resolve));
      channel.publish("payrail.rpc", "checkout.rpc", forged(MERCHANT), { correlationId: "c2", replyTo: "amq.rabbitmq.reply-to", userId: "payrail-gateway" });
      expect((await closed).message).toMatch(/PRECONDITION_FAILED.*user_id/i);
    } finally {
      await model.close().catch(() => undefined);
    }
    expect(ran).toEqual([]);
  });

  it("services publish and subscribe to domain events; the gateway's and the CLI's users can neither declare nor publish there", async () => {
    const checkout = await transportAs("payrail-checkout");
    const received: string[] = [];
    await checkout.subscribe("checkout", ["transaction.*"], async (event: DomainEvent) => void received.push(event.id));
    const payments = await transportAs("payrail-payments");
    const transactionUuid = prefixedHexId("sc-");
    const event: DomainEvent = {
      id: prefixedHexId("evt_"),
      type: "transaction.completed",
      created_at: new Date().toISOString(),
      aggregate: { type: "transaction", id: transactionUuid, version: 2 },
      merchant_id: "mer_1",
      data: { object: { transaction_uuid: transactionUuid, transaction_status: "completed" } },
    };
    await payments.publish(event);
    await vi.waitFor(() => expect(received).toEqual([event.id]));

    for (const user of ["payrail-gateway", "payrail-cli"]) {
      const model = await connect(vhost.url(user));
      try {
        const channel = await model.createConfirmChannel();
        const refused = new Promise<Error>((resolve) => channel.on("error", resolve));
        channel.publish("payrail.events", "transaction.completed", Buffer.from(JSON.stringify({ ...event, id: prefixedHexId("evt_") })));
        expect((await refused).message).toMatch(/ACCESS_REFUSED/);
        const again = await model.createChannel();
        again.on("error", () => undefined); // the refusal closes it, as asserted next
        const declareRefused = await again.assertExchange("payrail.events", "topic", { durable: true }).catch((e: Error) => e);
        expect((declareRefused as Error).message).toMatch(/ACCESS_REFUSED/);
      } finally {
        await model.close().catch(() => undefined);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a forged event to arrive
    expect(received).toEqual([event.id]);
  });

  it("the whole stack runs as compose runs it, one broker user per component: a payment settles, the CLI creates a merchant", async () => {
    const variant = embeddedVariant(); // the store is not what this test is about
    try {
      const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
      const store = await variant.store();
      for (const service of DOMAIN_SERVICES) {
        await startServices([service], { config, logger: silentLogger(), transport: await transportAs(`payrail-${service}`), store });
      }
      const transport = await transportAs("payrail-gateway");
      const app = await buildApp({ transport, logger: silentLogger(), apiKeyCacheMs: 5_000, rateLimitPerMinute: 100_000, services: [...DOMAIN_SERVICES], sandbox: true });
      const stack: Stack = {
        app,
        transport,
        async merchant(name = "Acme") {
          const out = await transport.call(createMerchantOp, { name }, { requestId: "req_test", principal: ADMIN });
          return { id: out.merchant.id, apiKey: out.api_key };
        },
        close: () => app.close(),
      };
      try {
        const merchant = await stack.merchant();
        const { id } = await linkedCheckout(stack, merchant.apiKey);
        const headers = { "api-key": merchant.apiKey };
        const paid = await app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers });
        expect(paid.statusCode).toBe(200);
        const { transaction_uuid: uuid } = paid.json();
        const settled = await app.inject({ method: "POST", url: `/api/sandbox/transfers/${uuid}/simulate`, payload: { status: "completed" }, headers });
        expect(settled.statusCode).toBe(200);
        // payments' events reach checkout and webhooks, each service on its own user and permissions.
        await vi.waitFor(async () => expect((await app.inject({ url: `/api/merchants/checkout/${id}`, headers })).json()).toMatchObject({ status: "paid", transfer: { status: "completed" } }), { timeout: 10_000 });
        await vi.waitFor(async () => {
          const types = (await app.inject({ url: "/api/merchants/events", headers })).json().data.map((e: { type: string }) => e.type);
          expect(types).toContain("transaction.completed");
        }, { timeout: 10_000 });

        const cli = await transportAs("payrail-cli");
        const created = await cli.call(createMerchantOp, { name: "From the CLI" }, { requestId: "req_cli", principal: ADMIN });
        expect(created.api_key).toMatch(/^sk_test_/);
      } finally {
        await stack.close();
      }
    } finally {
      await variant.cleanup();
    }
  }, 60_000);

  it("a call to a service nobody serves still fails fast for the gateway's user (its probe may read the queue)", async () => {
    const server = await checkoutServer();
    await server.close(); // the durable queue stays, without a consumer
    const gateway = await transportAs("payrail-gateway");
    const started = Date.now();
    expect(await outcome(gateway, MERCHANT)).toBe("service_unavailable");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

if (broker.url !== undefined && !canAdminister) console.warn("broker trust boundary tests skipped: rabbitmqctl cannot reach the broker");
