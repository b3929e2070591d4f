import { randomBytes } from "node:crypto";
import { getCheckoutOp, type AnyDomainEvent, type MerchantPrincipal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { OutboxFields, Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Through the launcher's wiring: a service never imports another service, not even in tests.
import { startServices, type Started } from "../../../bin/wiring.ts";
import { merchantPrincipal } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { until } from "../../../test/support/until.ts";

const variants = await infraVariants();

describe.each(variants)("checkout events over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let services: Started[] = [];
  const merchant: MerchantPrincipal = merchantPrincipal();
  const as = () => ({ requestId: `req_${randomBytes(4).toString("hex")}`, principal: merchant });
  /** What an outside subscriber received, by event id (delivery is at least once: ids dedupe). */
  const received = new Map<string, AnyDomainEvent>();

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    // Checkout (the service under test, with its relay) and payments (bank linking) through the wiring.
    services = await startServices(["checkout", "payments"], {
      config: loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") }),
      logger: silentLogger(),
      transport: await variant.transport(),
      store,
    });
    client = await variant.transport();
    const observer = await variant.transport();
    await observer.subscribe("test-observer", ["checkout.*"], async (event) => {
      received.set(event.id, event);
    });
  });
  afterAll(async () => {
    for (const s of services.reverse()) await s.stop();
    await variant.cleanup();
  });

  /** The events received about one checkout, oldest version first. */
  const eventsOf = (checkoutId: string) =>
    [...received.values()].filter((e) => e.aggregate.type === "checkout" && e.aggregate.id === checkoutId).sort((a, b) => a.aggregate.version - b.aggregate.version);
  const stored = (checkoutId: string) =>
    store.collection<{ _id: string; version: number } & OutboxFields>("checkouts").findOne({ _id: checkoutId });

  describe.skipIf(!!variant.skipReason)("publishing", () => {
    it("publishes checkout.created then checkout.payment_method_saved once each, with increasing versions and the checkout as Get Checkout shows it", async () => {
      const { id } = await linkedCheckoutOverRpc(client, merchant);
      // The checkout follows payments' payment_method.saved event: asynchronously.
      await until("the checkout to follow the saved payment method", async () => (await client.call(getCheckoutOp, { checkout_id: id }, as())).status === "payment_method_saved");
      const view = await client.call(getCheckoutOp, { checkout_id: id }, as());

      await until("two checkout events", () => eventsOf(id).length >= 2);
      await until(`${id}'s outbox to drain`, async () => (await stored(id))?.outboxPending === false);
      // Anything published twice would have arrived by now with its own id.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const events = eventsOf(id);
      expect(events.map((e) => e.type)).toEqual(["checkout.created", "checkout.payment_method_saved"]);
      expect(events.map((e) => e.aggregate.version)).toEqual([1, 2]);
      expect(events.map((e) => (e.data.object as { status?: string }).status)).toEqual(["open", "payment_method_saved"]);
      for (const event of events) {
        expect(event).toMatchObject({ aggregate: { type: "checkout", id }, livemode: false });
        expect((event.data.object as Record<string, unknown>)["id"]).toBe(id);
      }
      // created_at is the change's time: the checkout's updated_at once the server changed it.
      expect(events[1]!.created_at).toBe((events[1]!.data.object as Record<string, unknown>)["updated_at"]);
      // The last snapshot is what Get Checkout answers now; nested arrays (items[].category) included.
      expect(events[1]!.data.object).toEqual(view);

      const doc = await stored(id);
      expect(doc).toMatchObject({ version: 2, outboxPending: false });
      expect(Object.keys(doc?._outbox ?? {})).toHaveLength(0);
    });
  });
});
