import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connect } from "amqplib";
import { z } from "zod";
import {
  AppError,
  createMerchantOp,
  decideRefundOp,
  defineOperation,
  getCheckoutSummaryOp,
  initiateRefundTransferOp,
  pingOp,
  simulateRefundPayoutOp,
  simulateTransferOp,
  type DomainEvent,
  type Principal,
} from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import { createAmqpTransport, handle, type ReplyMode, type Transport, type TrustedSenders } from "@payrail/messaging";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { loadConfig, prefixedHexId, silentLogger } from "@payrail/runtime";
import { Registry } from "prom-client";
import { startMetricsServer } from "../bin/observability/metrics-server.ts";
import { startServices } from "../bin/wiring.ts";
import { payment, refundClient, requested } from "../services/gateway/test/support/refund-flow.ts";
import { rabbitmqctlWorks, readDefinitions, vhostWithDefinitions, type TestVhost } from "./support/broker-users.ts";
import { embeddedVariant } from "./support/infra.ts";
import type { Stack } from "./support/stack.ts";

/**
 * The broker trust boundary on the users and permissions compose gives RabbitMQ
 * (deploy/rabbitmq/definitions.json), in a vhost of the test's own: a service accepts merchant
 * and consumer principals only from the gateway's users, the admin principal only from the
 * gateway's and the CLI's, and from a domain service's users only that service's own principal,
 * for the operations it calls (`SERVICE_CALLS`), by the `user_id` the broker validates
 * (docs/decisions/0002-service-principals.md).
 */
const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canAdminister = broker.url !== undefined && (await rabbitmqctlWorks());

/** A made-up operation of the real checkout service (its queue is what checkout's user may consume). */
const whoAmI = defineOperation("checkout.trustProbe", z.object({}), z.object({ principal: z.string() }));
/** A stand-in for an operation payments calls on checkout (SERVICE_CALLS), served by the same probe. */
const summaryProbe = defineOperation(getCheckoutSummaryOp.pattern as `checkout.${string}`, z.object({}), z.object({ principal: z.string() }));
/** Answers the client address the handler was given (the audit log's `ip_address`). */
const addressProbe = defineOperation("checkout.addressProbe", z.object({}), z.object({ client_ip: z.string().nullable() }));
const DOMAIN_SERVICES = ["identity", "checkout", "payments", "refunds", "webhooks", "notices", "ledger"] as const;
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
    const probe = async (_payload: unknown, ctx: { principal: Principal }) => {
      ran.push(ctx.principal.kind);
      return { principal: ctx.principal.kind };
    };
    await server.serve("checkout", [handle(whoAmI, probe), handle(summaryProbe, probe)]);
    return server;
  }

  async function outcome(client: Transport, principal: Principal, operation = whoAmI): Promise<string> {
    try {
      return (await client.call(operation, {}, { requestId: prefixedHexId("req_"), principal })).principal;
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

  it("the CLI's user may act as admin only; a service's user only as itself, for the operations it calls", async () => {
    await checkoutServer();
    const cli = await transportAs("payrail-cli");
    expect(await outcome(cli, ADMIN)).toBe("admin");
    expect(await outcome(cli, MERCHANT)).toBe("permission_denied");
    expect(await outcome(cli, CONSUMER)).toBe("permission_denied");
    expect(await outcome(cli, SERVICE)).toBe("permission_denied"); // no refund payout from the CLI
    const payments = await transportAs("payrail-payments");
    expect(await outcome(payments, SERVICE, summaryProbe)).toBe("service"); // payments calls checkout.getCheckoutSummary
    expect(await outcome(payments, SERVICE)).toBe("permission_denied"); // but never checkout.trustProbe
    for (const principal of [MERCHANT, CONSUMER, ADMIN, ANONYMOUS, { kind: "service", service: "refunds" } as const]) {
      expect(await outcome(payments, principal, summaryProbe)).toBe("permission_denied");
    }
    expect(ran).toEqual(["admin", "service"]); // a refused request runs nothing
  });

  it("believes the client address only from the gateway's user: another sender's is dropped before the handler", async () => {
    const server = await transportAs("payrail-checkout");
    await server.serve("checkout", [handle(addressProbe, async (_payload, ctx) => ({ client_ip: ctx.clientIp ?? null }))]);
    const addressFrom = async (user: string) =>
      (await (await transportAs(user)).call(addressProbe, {}, { requestId: prefixedHexId("req_"), principal: ADMIN, clientIp: "203.0.113.9" })).client_ip;
    expect(await addressFrom("payrail-gateway")).toBe("203.0.113.9");
    expect(await addressFrom("payrail-cli")).toBeNull();
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

  it("the whole stack runs as compose runs it, one broker user per component: a payment settles, a refund is paid out, the CLI creates a merchant", async () => {
    await withComposeStack(async (stack, merchant) => {
      const { app } = stack;
      const headers = { "api-key": merchant.apiKey };
      const paid = await payment(stack, merchant.apiKey, "completed");
      // payments' events reach checkout and webhooks, each service on its own user and permissions.
      await vi.waitFor(async () => expect((await app.inject({ url: `/api/merchants/checkout/${paid.checkoutId}`, headers })).json()).toMatchObject({ status: "paid", transfer: { status: "completed" } }), { timeout: 10_000 });
      await vi.waitFor(async () => {
        const types = (await app.inject({ url: "/api/merchants/events", headers })).json().data.map((e: { type: string }) => e.type);
        expect(types).toContain("transaction.completed");
      }, { timeout: 10_000 });
      // refunds asks payments on its own account: the transaction, the payout, its simulation.
      const refund = await requested(stack, paid);
      const refunds = refundClient(stack);
      expect((await refunds.decide(headers, refund.id, "approved")).statusCode).toBe(200);
      const initiated = await refunds.initiate(headers, refund.id);
      expect(initiated.statusCode, initiated.body).toBe(200);
      const payout = initiated.json().refund.refund_transaction_id as string;
      const settled = await refunds.simulate(merchant.apiKey, payout, "completed");
      expect(settled.statusCode, settled.body).toBe(200);
      expect(settled.json()).toMatchObject({ id: refund.id, status: "completed" });

      const cli = await transportAs("payrail-cli");
      const created = await cli.call(createMerchantOp, { name: "From the CLI" }, { requestId: "req_cli", principal: ADMIN });
      expect(created.api_key).toMatch(/^sk_test_/);
    });
  }, 90_000);

  it("no domain service's user moves a merchant's money: forged simulations, decisions and payouts are refused, as a merchant or as itself", async () => {
    await withComposeStack(async (stack, merchant) => {
      const headers = { "api-key": merchant.apiKey };
      const pending = await payment(stack, merchant.apiKey, "pending");
      const refund = await requested(stack, await payment(stack, merchant.apiKey, "completed"));
      const asMerchant: Principal = { kind: "merchant", merchantId: merchant.id, keyPrefix: "sk_test_made_up", livemode: false };
      const attempt = async (t: Transport, call: (meta: { requestId: string; principal: Principal }) => Promise<unknown>, principal: Principal) => {
        try {
          await call({ requestId: prefixedHexId("req_"), principal });
          return "accepted";
        } catch (err) {
          return err instanceof AppError ? err.code : String(err);
        }
      };
      for (const service of DOMAIN_SERVICES) {
        const t = await transportAs(`payrail-${service}`);
        const forged: Record<string, (meta: { requestId: string; principal: Principal }) => Promise<unknown>> = {
          simulateTransfer: (meta) => t.call(simulateTransferOp, { transaction_uuid: pending.uuid, status: "completed" }, meta),
          decideRefund: (meta) => t.call(decideRefundOp, { id: refund.id, status: "approved" }, meta),
          initiateRefundTransfer: (meta) => t.call(initiateRefundTransferOp, { id: refund.id, status: "approved" }, meta),
        };
        for (const [name, call] of Object.entries(forged)) {
          for (const principal of [asMerchant, { kind: "service", service } as const, ANONYMOUS]) {
            expect(`${service} ${name} as ${principal.kind}: ${await attempt(t, call, principal)}`).toBe(`${service} ${name} as ${principal.kind}: permission_denied`);
          }
        }
      }
      // Nothing moved: the transfer is still pending, the refund still waits for the merchant.
      const checkout = (await stack.app.inject({ url: `/api/merchants/checkout/${pending.checkoutId}`, headers })).json();
      expect(checkout).toMatchObject({ transfer: { status: "pending" } });
      expect((await stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers })).json()).toMatchObject({ id: refund.id, status: "pending" });
    });
  }, 90_000);

  it("only refunds' user asks payments to simulate a refund's payout with a merchant's actor: another service's request is refused and records nothing", async () => {
    await withComposeStack(async (stack, merchant) => {
      const headers = { "api-key": merchant.apiKey };
      const refunds = refundClient(stack);
      const refund = await requested(stack, await payment(stack, merchant.apiKey, "completed"));
      expect((await refunds.decide(headers, refund.id, "approved")).statusCode).toBe(200);
      const initiated = await refunds.initiate(headers, refund.id);
      expect(initiated.statusCode, initiated.body).toBe(200);
      const transferId = initiated.json().refund.refund_transaction_id as string;
      const claimed = { merchant_id: merchant.id, transfer_id: transferId, status: "completed", audit: { actor: { type: "api_key", id: "sk_test_made_up" }, ip_address: "203.0.113.66" } } as const;
      for (const service of DOMAIN_SERVICES.filter((s) => s !== "refunds")) {
        const t = await transportAs(`payrail-${service}`);
        for (const as of [service, "refunds"]) {
          const answer = await t.call(simulateRefundPayoutOp, claimed, { requestId: prefixedHexId("req_"), principal: { kind: "service", service: as } }).then(
            () => "accepted",
            (err: unknown) => (err instanceof AppError ? err.code : String(err)),
          );
          expect(`${service} as ${as}: ${answer}`).toBe(`${service} as ${as}: permission_denied`);
        }
      }
      expect((await stack.app.inject({ url: `/api/merchants/refunds/${refund.id}`, headers })).json()).toMatchObject({ id: refund.id, status: "processing" });
      // The merchant's own simulation, through refunds, moves the payout: its entry, naming the merchant's key, is the only one.
      const settled = await refunds.simulate(merchant.apiKey, transferId, "completed");
      expect(settled.json()).toMatchObject({ id: refund.id, status: "completed" });
      await vi.waitFor(async () => {
        const entries = (await stack.app.inject({ url: "/api/merchants/audit_log?action=refund_payout.simulated", headers })).json().data as { actor: { type: string; id: string }; object: unknown }[];
        expect(entries).toMatchObject([{ actor: { type: "api_key" }, object: { type: "refund", id: refund.id } }]);
        expect(merchant.apiKey.startsWith(entries[0]!.actor.id)).toBe(true);
      }, { timeout: 10_000 });
    });
  }, 90_000);

  /** Every service on its own broker user, as compose runs them; the gateway on its own. */
  async function withComposeStack(body: (stack: Stack, merchant: { id: string; apiKey: string }) => Promise<void>): Promise<void> {
    const variant = embeddedVariant(); // the store is not what these tests are about
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
        await body(stack, await stack.merchant());
      } finally {
        await stack.close();
      }
    } finally {
      await variant.cleanup();
    }
  }

  it("a domain service's process is ready as its own user (its /readyz pings its service), and pings no other service", async () => {
    const checkout = await transportAs("payrail-checkout");
    await checkout.serve("checkout", [handle(pingOp("checkout"), async () => ({ service: "checkout", ok: true as const }))]);
    const server = await startMetricsServer({ port: 0, host: "127.0.0.1", registry: new Registry(), transport: checkout, services: ["checkout"] });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toEqual({ status: "ready", checks: { broker: "ok", checkout: "ok" } });
      expect(ready.status).toBe(200);
    } finally {
      await server.stop();
    }
    const payments = await transportAs("payrail-payments");
    expect(await outcome(payments, ANONYMOUS, pingOp("checkout") as unknown as typeof whoAmI)).toBe("permission_denied");
  });

  it("a call to a service nobody serves still fails fast for the gateway's user (its probe may read the queue)", async () => {
    const server = await checkoutServer();
    await server.close(); // the durable queue stays, without a consumer
    const gateway = await transportAs("payrail-gateway");
    // Answered, not timed out: waiting out the 5 s call timeout would end in service_timeout.
    expect(await outcome(gateway, MERCHANT)).toBe("service_unavailable");
  });
});

if (broker.url !== undefined && !canAdminister) console.warn("broker trust boundary tests skipped: rabbitmqctl cannot reach the broker");
