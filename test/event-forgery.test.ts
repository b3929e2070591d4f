import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, type GetMessage } from "amqplib";
import { z } from "zod";
import { AppError, createMerchantOp, defineOperation, getCheckoutSummaryOp, isOperatorOp, type DomainEvent, type Principal } from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import { createAmqpTransport, handle, type Transport, type TrustedSenders } from "@payrail/messaging";
import { amqpTestUrl } from "@payrail/messaging/testing";
import { loadConfig, prefixedHexId, silentLogger, type Logger } from "@payrail/runtime";
import { startServices } from "../bin/wiring.ts";
import { linkedCheckout } from "../services/gateway/test/support/payment-flow.ts";
import { refundClient } from "../services/gateway/test/support/refund-flow.ts";
import { rabbitmqctlWorks, readDefinitions, vhostWithDefinitions, type TestVhost } from "./support/broker-users.ts";
import { embeddedVariant } from "./support/infra.ts";
import { memoryLogger } from "./support/memory-logger.ts";
import { refundPayoutSettled, transactionEvent, transactionRecord } from "./support/payment-events.ts";
import type { Stack } from "./support/stack.ts";

/**
 * Issue 21, item 2: forged events. On the users and permissions compose gives RabbitMQ
 * (deploy/rabbitmq/definitions.json), in a vhost of the test's own, each event type is applied
 * only when its owning service's broker user published it (the `user_id` RabbitMQ validates):
 * anything else is dead-lettered, logged with sender, type and id, and never applied; the
 * gateway's and the CLI's users cannot put anything into an event queue at all.
 */
const broker = await amqpTestUrl();
afterAll(() => broker.stop());
const canAdminister = broker.url !== undefined && (await rabbitmqctlWorks());

const DOMAIN_SERVICES = ["identity", "checkout", "payments", "refunds", "webhooks", "notices", "ledger"] as const;
/** What compose sets (AMQP_GATEWAY_USERS, AMQP_SERVICE_USERS, AMQP_ADMIN_USERS). */
const POLICY: TrustedSenders = {
  gateway: ["payrail-gateway"],
  services: Object.fromEntries(DOMAIN_SERVICES.map((s) => [s, [`payrail-${s}`]])),
  admin: ["payrail-cli"],
};
const ADMIN: Principal = { kind: "admin" };
const whoAmI = defineOperation("checkout.trustProbe", z.object({}), z.object({ principal: z.string() }));
const paymentsCalls = defineOperation(getCheckoutSummaryOp.pattern as `checkout.${string}`, z.object({}), z.object({ principal: z.string() }));
const refundsCalls = defineOperation(isOperatorOp.pattern as `identity.${string}`, z.object({}), z.object({ principal: z.string() }));

function completedEvent(uuid = prefixedHexId("sc-"), checkoutNumber = 1): DomainEvent {
  return transactionEvent(transactionRecord(checkoutNumber, "completed", uuid), "mer_1", 2);
}

describe("deploy/rabbitmq/definitions.json (issue 21, item 9)", () => {
  const { users, permissions } = readDefinitions();
  const grants = (user: string) => permissions.find((p) => p.user === user && p.vhost === "/")!;

  it("has no guest and no administrator: every user is one of Payrail's components, tagged with nothing", () => {
    expect(users.map((u) => u.name).sort()).toEqual(["payrail-cli", "payrail-gateway", ...DOMAIN_SERVICES.map((s) => `payrail-${s}`)].sort());
    for (const user of users as { name: string; tags?: string }[]) expect(user.tags ?? "").toBe("");
    expect(permissions.map((p) => p.user).sort()).toEqual(users.map((u) => u.name).sort());
  });

  it("lets the gateway and the CLI write to the RPC exchange only: never the default exchange, an event queue or payrail.events", () => {
    for (const user of ["payrail-gateway", "payrail-cli"]) {
      const write = new RegExp(grants(user).write);
      expect(write.test("payrail.rpc")).toBe(true);
      for (const resource of ["amq.default", "payrail.events", ...DOMAIN_SERVICES.flatMap((s) => [`${s}.events`, `${s}.events.retry`, `${s}.rpc`])]) {
        expect(write.test(resource), `${user} may write ${resource}`).toBe(false);
      }
    }
  });
});

describe.skipIf(!canAdminister)("forged events are refused (deploy/rabbitmq/definitions.json users)", () => {
  let vhost: TestVhost;
  let opened: Transport[] = [];

  beforeAll(async () => {
    vhost = await vhostWithDefinitions(broker.url!, ["payrail-gateway", "payrail-cli", ...DOMAIN_SERVICES.map((s) => `payrail-${s}`)]);
  }, 60_000);
  afterAll(() => vhost?.remove());
  afterEach(async () => {
    await Promise.all(opened.map((t) => t.close()));
    opened = [];
  });

  async function transportAs(user: string, logger: Logger = silentLogger()): Promise<Transport> {
    const t = await createAmqpTransport({ url: vhost.url(user), logger, trustedSenders: POLICY, defaultTimeoutMs: 5_000, closeGraceMs: 500 });
    opened.push(t);
    expect(t.isReady()).toBe(true);
    return t;
  }

  /** What a raw connection as `user` gets for publishing `event` to `exchange` with `routingKey`: "sent", "returned" or the channel's error. */
  async function rawPublish(user: string, exchange: string, routingKey: string, event: DomainEvent): Promise<string> {
    const model = await connect(vhost.url(user));
    try {
      const channel = await model.createConfirmChannel();
      const outcome = new Promise<string>((resolve) => {
        channel.on("error", (err: Error) => resolve(err.message));
        channel.on("return", () => resolve("returned"));
      });
      channel.publish(exchange, routingKey, Buffer.from(JSON.stringify(event)), { userId: user, messageId: event.id, type: event.type, mandatory: true, persistent: true });
      // No window to wait: RabbitMQ sends an unroutable mandatory message's basic.return before its
      // ack, and a refused publish closes the channel instead of acking it, so whichever ended
      // the publish has settled `outcome` by the time the confirm arrives.
      const confirmed = channel.waitForConfirms().then(() => "sent");
      return await Promise.race([outcome, confirmed.catch((err: Error) => err.message)]);
    } finally {
      await model.close().catch(() => undefined);
    }
  }

  /** The dead letters of `service` (left in the queue), with the reason and sender headers. */
  async function deadLetters(service: string): Promise<{ id: unknown; reason: string; sender: string }[]> {
    const model = await connect(vhost.url(`payrail-${service}`));
    try {
      const channel = await model.createChannel();
      const letters: { id: unknown; reason: string; sender: string }[] = [];
      for (let m: GetMessage | false = await channel.get(`${service}.events.dead`); m; m = await channel.get(`${service}.events.dead`)) {
        const headers = m.properties.headers ?? {};
        letters.push({ id: m.properties.messageId, reason: String(headers["x-payrail-error"]), sender: String(headers["x-payrail-sender"]) });
      }
      return letters;
    } finally {
      await model.close().catch(() => undefined);
    }
  }

  const forgedCount = (t: Transport) => t.stats().events.deadLetteredBy.filter((d) => d.cause === "forged").reduce((sum, d) => sum + d.count, 0);

  it("dead-letters a transaction.completed published as the webhooks service's user, logs who sent it, and still applies payments' own", async () => {
    const { logger, lines, text } = memoryLogger();
    const checkout = await transportAs("payrail-checkout", logger);
    const applied: string[] = [];
    await checkout.subscribe("checkout", ["transaction.*"], async (event) => void applied.push(event.id));

    const uuid = prefixedHexId("sc-");
    const forged = completedEvent(uuid);
    await (await transportAs("payrail-webhooks")).publish(forged); // webhooks may publish to payrail.events, but owns no transaction.*
    await vi.waitFor(() => expect(forgedCount(checkout)).toBe(1));
    expect(applied).toEqual([]);
    const refusal = lines<{ msg: string; sender?: string; type?: string; eventId?: string }>().find((l) => l.msg.includes("forged event"));
    expect(refusal).toMatchObject({ sender: "payrail-webhooks", type: "transaction.completed", eventId: forged.id });
    expect(text()).not.toContain(uuid); // never the payload
    expect(await deadLetters("checkout")).toContainEqual({
      id: forged.id,
      sender: "payrail-webhooks",
      reason: "forged event: transaction.completed is accepted only from payments, not from broker user payrail-webhooks (the webhooks service)",
    });

    const real = completedEvent(uuid);
    await (await transportAs("payrail-payments")).publish(real);
    await vi.waitFor(() => expect(applied).toEqual([real.id]));
  });

  it("the gateway's and the CLI's users cannot put an event into checkout.events: not through the default exchange, not through the RPC exchange", async () => {
    const checkout = await transportAs("payrail-checkout");
    const applied: string[] = [];
    await checkout.subscribe("checkout", ["transaction.*"], async (event) => void applied.push(event.id));
    await checkout.serve("checkout", [handle(whoAmI, async (_p, ctx) => ({ principal: ctx.principal.kind }))]); // declares payrail.rpc
    for (const user of ["payrail-gateway", "payrail-cli"]) {
      expect(await rawPublish(user, "", "checkout.events", completedEvent())).toMatch(/ACCESS_REFUSED.*amq\.default/);
      expect(await rawPublish(user, "payrail.rpc", "checkout.events", completedEvent())).toBe("returned"); // routed nowhere
      expect(await rawPublish(user, "payrail.events", "transaction.completed", completedEvent())).toMatch(/ACCESS_REFUSED/);
    }
    // A service's user may reach another's queue through the default exchange (it replies there),
    // but what it drops there is judged by its own user: refused.
    expect(await rawPublish("payrail-webhooks", "", "checkout.events", completedEvent())).toBe("sent");
    await vi.waitFor(() => expect(forgedCount(checkout)).toBe(1));
    // A publisher without user_id is nobody: refused too.
    const model = await connect(vhost.url("payrail-refunds"));
    const channel = await model.createConfirmChannel();
    const anonymous = completedEvent();
    channel.publish("", "checkout.events", Buffer.from(JSON.stringify(anonymous)), { messageId: anonymous.id });
    await channel.waitForConfirms();
    await model.close();
    await vi.waitFor(() => expect(forgedCount(checkout)).toBe(2));
    expect(applied).toEqual([]);
    // The gateway still calls services: requests go through payrail.rpc.
    const gateway = await transportAs("payrail-gateway");
    expect(await gateway.call(whoAmI, {}, { requestId: "req_1", principal: ADMIN })).toEqual({ principal: "admin" });
  });

  it("a retried event is judged on its original publisher: payments' event that failed once is applied on its second attempt", async () => {
    const checkout = await transportAs("payrail-checkout");
    const attempts: number[] = [];
    await checkout.subscribe(
      "checkout",
      ["transaction.*"],
      async (_event, delivery) => {
        attempts.push(delivery.attempt);
        if (delivery.attempt === 1) throw new Error("not yet");
      },
      { retry: { firstDelayMs: 50 } },
    );
    await (await transportAs("payrail-payments")).publish(completedEvent());
    await vi.waitFor(() => expect(checkout.stats().events.consumed["transaction.completed"]).toBe(1));
    expect(attempts).toEqual([1, 2]);
    expect(forgedCount(checkout)).toBe(0);
  });

  it("dead-letters a refund_payout.settled with an inflated amount from any user but payments'", async () => {
    const refunds = await transportAs("payrail-refunds");
    const applied: string[] = [];
    await refunds.subscribe("refunds", ["refund_payout.settled"], async (event) => void applied.push(event.id));
    const inflated = () =>
      refundPayoutSettled({ checkoutId: prefixedHexId("chk_"), transactionUuid: prefixedHexId("sc-"), amountRefundedCents: 10_750, fullyRefunded: true }, "mer_1");
    for (const [n, user] of ["payrail-refunds", "payrail-checkout", "payrail-webhooks"].entries()) {
      await (await transportAs(user)).publish(inflated());
      await vi.waitFor(() => expect(forgedCount(refunds)).toBe(n + 1));
    }
    expect(applied).toEqual([]);
  });

  it("payments' user cannot call as refunds: a service principal must name its sender's own service", async () => {
    // Stand-ins for an operation each calls (SERVICE_CALLS): payments asks checkout, refunds asks identity.
    const checkout = await transportAs("payrail-checkout");
    await checkout.serve("checkout", [handle(paymentsCalls, async (_p, ctx) => ({ principal: ctx.principal.kind }))]);
    const identity = await transportAs("payrail-identity");
    await identity.serve("identity", [handle(refundsCalls, async (_p, ctx) => ({ principal: ctx.principal.kind }))]);
    const call = async (user: string, service: string, operation: typeof paymentsCalls) => {
      const client = await transportAs(user);
      return client.call(operation, {}, { requestId: "req_1", principal: { kind: "service", service } }).then(
        (r) => r.principal,
        (err: unknown) => (err instanceof AppError ? err.code : String(err)),
      );
    };
    expect(await call("payrail-payments", "payments", paymentsCalls)).toBe("service");
    expect(await call("payrail-payments", "refunds", refundsCalls)).toBe("permission_denied");
    expect(await call("payrail-refunds", "refunds", refundsCalls)).toBe("service");
    expect(await call("payrail-refunds", "payments", paymentsCalls)).toBe("permission_denied");
  });

  it("on the whole stack, forged events change nothing and the real outcome still lands: a transfer, then a refund payout", async () => {
    const variant = embeddedVariant();
    try {
      const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
      const store = await variant.store();
      const served: Record<string, Transport> = {};
      for (const service of DOMAIN_SERVICES) {
        served[service] = await transportAs(`payrail-${service}`);
        await startServices([service], { config, logger: silentLogger(), transport: served[service], store });
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
        const headers = { "api-key": merchant.apiKey };
        const get = async (url: string, h: Record<string, string> = headers) => (await app.inject({ url, headers: h })).json();
        const { id, consumer } = await linkedCheckout(stack, merchant.apiKey);
        const started = await app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers });
        const uuid = started.json().transaction_uuid as string;
        const consumerHeaders = { authorization: `Token ${consumer.token}` };
        const [record] = (await get("/api/merchants/manage_subscription/get_subscription_details/", consumerHeaders)) as { checkout_id: number }[];
        const checkoutNumber = record!.checkout_id;
        await vi.waitFor(async () => expect(await get(`/api/merchants/checkout/${id}`)).toMatchObject({ status: "transfer_pending" }), { timeout: 30_000 });

        // The forged settlement, as the webhooks service's user and through the default exchange.
        const forged = transactionEvent(transactionRecord(checkoutNumber, "completed", uuid), merchant.id, 50);
        await served.webhooks!.publish(forged);
        for (const user of ["payrail-gateway", "payrail-cli"]) expect(await rawPublish(user, "", "checkout.events", forged)).toMatch(/ACCESS_REFUSED/);
        await vi.waitFor(() => expect(forgedCount(served.checkout!)).toBe(1));
        await vi.waitFor(() => expect(forgedCount(served.webhooks!)).toBe(1)); // no merchant event, no signed webhook
        expect(await get(`/api/merchants/checkout/${id}`)).toMatchObject({ status: "transfer_pending" });
        expect((await get("/api/merchants/events")).data.map((e: { type: string }) => e.type)).not.toContain("transaction.completed");

        const refunds = refundClient(stack);
        expect((await refunds.simulate(merchant.apiKey, uuid, "completed")).statusCode).toBe(200);
        await vi.waitFor(async () => expect(await get(`/api/merchants/checkout/${id}`)).toMatchObject({ status: "paid", transfer: { status: "completed" } }), { timeout: 30_000 });
        await vi.waitFor(async () => expect((await get("/api/merchants/events")).data.filter((e: { type: string }) => e.type === "transaction.completed")).toHaveLength(1), { timeout: 30_000 });

        // A refund of 40.00 whose payout is pending; a forged settlement of 107.50 refunded.
        const asked = await refunds.request(consumerHeaders, { transaction_uuid: uuid, amount: "40.00" });
        const refundId = asked.json().refund.id as string;
        expect((await refunds.decide(headers, refundId, "Approved")).statusCode).toBe(200);
        const processing = (await refunds.initiate(headers, refundId)).json().refund;
        expect(processing).toMatchObject({ status: "processing" });
        const settled = refundPayoutSettled({ refundId, checkoutId: id, transactionUuid: uuid, amountRefundedCents: 10_750, fullyRefunded: true }, merchant.id);
        await served.refunds!.publish(settled); // refunds owns refund.*, not the payout's outcome
        await vi.waitFor(() => expect(forgedCount(served.refunds!)).toBe(1));
        await vi.waitFor(() => expect(forgedCount(served.checkout!)).toBe(2));
        expect(await get(`/api/merchants/refunds/${refundId}`)).toMatchObject({ status: "processing" });
        expect(await get(`/api/merchants/checkout/${id}`)).toMatchObject({ status: "paid", amount_refunded: 0 });

        const paidBack = await refunds.simulate(merchant.apiKey, processing.refund_transaction_id, "completed");
        expect(paidBack.json()).toMatchObject({ status: "completed", amount: 40 });
        await vi.waitFor(async () => expect(await get(`/api/merchants/checkout/${id}`)).toMatchObject({ status: "paid", amount_refunded: 40 }), { timeout: 30_000 });
        expect(forgedCount(served.checkout!)).toBe(2);
      } finally {
        await stack.close();
      }
    } finally {
      await variant.cleanup();
    }
  }, 240_000);
});

if (broker.url !== undefined && !canAdminister) console.warn("forged event tests skipped: rabbitmqctl cannot reach the broker");
