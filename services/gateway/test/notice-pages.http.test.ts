import { getConsumerReceiptOp, listConsumerReceiptsOp } from "@payrail/contracts";
import { randomBytes } from "node:crypto";
import * as notices from "@payrail/notices";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServices } from "../../../bin/wiring.ts";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import { dashboardUser } from "./support/dashboard-session.ts";
import type { LinkedCheckout } from "./support/payment-flow.ts";
import { PortalClient } from "./support/portal-client.ts";
import { payment } from "./support/refund-flow.ts";

const variants = await infraVariants();
const NOTICE_ID = /ntc_[0-9a-f]{32}/g;

/**
 * The pages over consumer notices (docs/decisions/0009-consumer-notices.md): the portal's
 * receipts, each consumer's own (another's id is 404, a sandbox session sees the merchant that
 * read its code only), and the notices on the dashboard's checkout page. The notices service runs
 * beside the stack; receipts come from real payments settled by the sandbox.
 */
describe.each(variants)("receipts and notices pages over $name", (variant) => {
  let stack: Stack;
  let services: { stop(): Promise<void> }[] = [];
  let bakery: { id: string; apiKey: string };
  let books: { id: string; apiKey: string };

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant);
    // The webhooks service too: the dashboard's checkout page lists the checkout's events.
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    services = await startServices(["webhooks"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    const noticesService = await notices.start({
      transport: await variant.transport(),
      store: await variant.store(),
      logger: silentLogger(),
      publicUrl: "https://pay.example",
      policy: { retryScheduleMs: [250, 250], leaseMs: 2_000 },
      worker: { pollMs: 100 },
      subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 500 } },
    });
    services.push(noticesService);
    bakery = await stack.merchant("Corner <Bakery>");
    books = await stack.merchant("Paper Lantern Books");
    const profile = await stack.app.inject({
      method: "PATCH",
      url: "/api/merchants/profile",
      payload: { support_email: "help@bakery.example", support_phone: "+15555550123" },
      headers: { "api-key": bakery.apiKey },
    });
    expect(profile.statusCode, profile.body).toBe(200);
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
    await stack?.close();
    await variant.cleanup();
  });

  /** A consumer whose sandbox token (read back by `apiKey`'s merchant) is also their portal session there. */
  async function consumerAt(apiKey: string, phone = randomPhone()): Promise<{ client: PortalClient; consumer: LinkedCheckout["consumer"] }> {
    const [consumer] = await consumerTokensAt(stack, [apiKey], phone);
    const client = new PortalClient(stack);
    client.cookies.set("payrail_account", consumer.token);
    return { client, consumer };
  }

  /** The receipt ids the portal's list links to, in the page's order, once there are `count`. */
  const receiptIds = (client: PortalClient, count: number, url = "/account/receipts") =>
    eventually(async () => {
      const page = await client.get(url);
      expect(page.statusCode).toBe(200);
      const ids = [...new Set(page.body.match(NOTICE_ID) ?? [])];
      expect(ids).toHaveLength(count);
      return { ids, body: page.body };
    });
  const userOf = (consumer: LinkedCheckout["consumer"], merchantId: string) => ({ kind: "user" as const, userId: consumer.userId, phone: consumer.phone, merchantId });

  describe.skipIf(!!variant.skipReason)("the portal's receipts", () => {
    it("lists the consumer's receipts newest first, one per payment, and shows each with the merchant's support and the words sent", async () => {
      const { client, consumer } = await consumerAt(bakery.apiKey);
      const first = await payment(stack, bakery.apiKey, "completed", { customer: { email: "ada@example.com" } }, { consumer });
      await receiptIds(client, 1);
      const second = await payment(stack, bakery.apiKey, "completed", {}, { consumer });
      const { ids, body } = await receiptIds(client, 2);
      expect(body).toContain("Corner &lt;Bakery&gt;");
      expect(body).not.toContain("Corner <Bakery>");
      expect(body).toContain('aria-current="page">Receipts');
      // The page's order is the operation's: newest first.
      const list = await stack.transport.call(listConsumerReceiptsOp, { limit: 10 }, { requestId: "test", principal: userOf(consumer, bakery.id) });
      expect(list.data.map((r) => r.id)).toEqual(ids);
      expect(list.data.map((r) => r.transaction_uuid)).toEqual([second.uuid, first.uuid]);
      expect(list.data[0]!.merchant).toEqual({ name: "Corner <Bakery>", support_email: "help@bakery.example", support_phone: "+15555550123" });

      // The first payment went by SMS and email (its checkout had an address): both copies, masked.
      const older = await client.get(`/account/receipts/${ids[1]}`);
      expect(older.statusCode).toBe(200);
      expect(older.headers["content-security-policy"]).toContain("script-src 'none'");
      expect(older.body).toContain("help@bakery.example");
      expect(older.body).toContain("+15555550123");
      expect(older.body).toContain("Text message to +1");
      expect(older.body).toContain("Email to a•••@example.com");
      expect(older.body).toContain("has gone through");
      // The recipients masked (the whole number is only the signed-in consumer's own, in the header).
      expect(older.body.split("</header>")[1]).not.toContain(consumer.phone);
      expect(older.body).not.toContain("ada@example.com");
      const newer = await client.get(`/account/receipts/${ids[0]}`);
      expect(newer.body).toContain("Text message to +1");
      expect(newer.body).not.toContain("Email to");
    });

    it("pages through receipts with a cursor, and refuses a cursor that is not the consumer's", async () => {
      const { client, consumer } = await consumerAt(bakery.apiKey);
      for (let i = 0; i < 3; i++) await payment(stack, bakery.apiKey, "completed", {}, { consumer });
      const { ids } = await receiptIds(client, 3);
      const call = (principal: ReturnType<typeof userOf>, starting_after?: string) =>
        stack.transport.call(listConsumerReceiptsOp, { limit: 2, ...(starting_after ? { starting_after } : {}) }, { requestId: "test", principal });
      const one = await call(userOf(consumer, bakery.id));
      expect(one).toMatchObject({ has_more: true });
      const two = await call(userOf(consumer, bakery.id), one.data[1]!.id);
      expect([...one.data, ...two.data].map((r) => r.id)).toEqual(ids);
      expect(two.has_more).toBe(false);
      const { consumer: bob } = await consumerAt(bakery.apiKey);
      await expect(call(userOf(bob, bakery.id), ids[0])).rejects.toMatchObject({ code: "parameter_invalid" });
      const invalid = await client.get("/account/receipts?starting_after=rev_1");
      expect(invalid.statusCode).toBe(400);
    });

    it("answers another consumer's receipt as 404, on the page and through the operation; a merchant cannot call it", async () => {
      const { client: ada, consumer } = await consumerAt(bakery.apiKey);
      await payment(stack, bakery.apiKey, "completed", {}, { consumer });
      const [id] = (await receiptIds(ada, 1)).ids;
      const { client: bob, consumer: bobConsumer } = await consumerAt(bakery.apiKey);
      const page = await bob.get(`/account/receipts/${id}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain("no such receipt");
      expect(page.body).not.toContain("Corner");
      expect((await bob.get("/account/receipts")).body).not.toContain(id!);
      await expect(stack.transport.call(getConsumerReceiptOp, { receipt_id: id! }, { requestId: "test", principal: userOf(bobConsumer, bakery.id) })).rejects.toMatchObject({
        code: "resource_missing",
      });
      // A JSON client gets the API's error body.
      const json = await bob.send({ method: "GET", url: `/account/receipts/${id}`, headers: { accept: "application/json" } });
      expect(json.statusCode).toBe(404);
      expect(json.json().error.code).toBe("resource_missing");
      expect((await bob.get("/account/receipts/not-an-id")).statusCode).toBe(404);
      const merchant = { kind: "merchant" as const, merchantId: bakery.id, keyPrefix: "sk_test_x", livemode: false };
      await expect(stack.transport.call(getConsumerReceiptOp, { receipt_id: id! }, { requestId: "test", principal: merchant })).rejects.toMatchObject({ code: "permission_denied" });
      // Signed out, the page sends the browser to sign-in.
      const anonymous = await new PortalClient(stack).get(`/account/receipts/${id}`);
      expect(anonymous.statusCode).toBe(303);
    });

    it("shows a sandbox session the receipts of the merchant that read its code only", async () => {
      const phone = randomPhone();
      const [atBakery, atBooks] = await consumerTokensAt(stack, [bakery.apiKey, books.apiKey], phone);
      await payment(stack, bakery.apiKey, "completed", {}, { consumer: atBakery });
      await payment(stack, books.apiKey, "completed", {}, { consumer: atBooks });
      const bakeryClient = new PortalClient(stack);
      bakeryClient.cookies.set("payrail_account", atBakery.token);
      const booksClient = new PortalClient(stack);
      booksClient.cookies.set("payrail_account", atBooks.token);
      const bakeryIds = (await receiptIds(bakeryClient, 1)).ids;
      const { ids: booksIds, body } = await receiptIds(booksClient, 1);
      expect(body).toContain("Paper Lantern Books");
      expect(body).not.toContain("Corner");
      expect((await booksClient.get(`/account/receipts/${bakeryIds[0]}`)).statusCode).toBe(404);
      expect((await bakeryClient.get(`/account/receipts/${booksIds[0]}`)).statusCode).toBe(404);
    });
  });

  describe.skipIf(!!variant.skipReason)("the dashboard's checkout page", () => {
    it("lists the checkout's notices: type, channel, masked recipient, status, created and sent", async () => {
      const { consumer } = await consumerAt(bakery.apiKey);
      const paid = await payment(stack, bakery.apiKey, "completed", { customer: { email: "grace@example.com" } }, { consumer, acceptMandate: true });
      const owner = await dashboardUser(stack.app, bakery.id, "viewer");
      const body = await eventually(async () => {
        const page = await owner.client.get(`/dashboard/checkouts/${paid.checkoutId}`);
        expect(page.statusCode).toBe(200);
        expect(page.body.match(/<span class="badge ok">sent<\/span>/g) ?? []).toHaveLength(4);
        return page.body;
      });
      expect(body).toContain("Notices to the consumer");
      for (const type of ["authorization_copy", "payment_receipt"]) expect(body).toContain(type);
      expect(body).toContain("g•••@example.com");
      expect(body).not.toContain("grace@example.com");
      expect(body).not.toContain(consumer.phone);
      // Another merchant's user sees neither the checkout nor its notices.
      const other = await dashboardUser(stack.app, books.id, "owner");
      const foreign = await other.client.get(`/dashboard/checkouts/${paid.checkoutId}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain("g•••@example.com");
    });
  });
});
