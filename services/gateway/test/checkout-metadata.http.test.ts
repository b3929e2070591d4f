import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Stack } from "../../../test/support/stack.ts";
import { until } from "../../../test/support/until.ts";
import type { Receiver } from "../../../test/support/webhook-receiver.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();

describe.each(variants)("a checkout's metadata over $name", (variant) => {
  const world = withWebhooksStack(variant);
  let stack: Stack;
  let receiver: Receiver;
  let merchant: { id: string; apiKey: string };
  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ stack, receiver } = world);
    merchant = await stack.merchant("Acme");
  });
  const create = (body: Record<string, unknown>) =>
    stack.app.inject({ method: "POST", url: "/api/merchants/checkout", payload: body, headers: { "api-key": merchant.apiKey } });
  const get = (url: string) => stack.app.inject({ url, headers: { "api-key": merchant.apiKey } });

  describe.skipIf(!!variant.skipReason)("kept and echoed", () => {
    it("echoes metadata on Get Checkout, the list, the events API and a signed webhook, and drops other unknown keys", async () => {
      const endpoint = (
        await stack.app.inject({
          method: "POST",
          url: "/api/merchants/webhook_endpoints",
          payload: { url: receiver.url, enabled_events: ["checkout.created"] },
          headers: { "api-key": merchant.apiKey },
        })
      ).json() as { secret: string };
      const metadata = { order_ref: "A-1001", campaign: "spring", empty: "" };
      const body = sampleCheckout({ metadata, isSandbox: true, extra_note: "dropped" });
      const created = await create(body);
      expect(created.statusCode).toBe(200);
      const { id } = created.json() as { id: string };

      const view = (await get(`/api/merchants/checkout/${id}`)).json();
      expect(view.metadata).toEqual(metadata);
      expect(view).not.toHaveProperty("isSandbox");
      expect(view).not.toHaveProperty("extra_note");

      const listed = (await get(`/api/merchants/checkout?merchant_checkout_id=${encodeURIComponent(String(body["merchant_checkout_id"]))}`)).json();
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0].metadata).toEqual(metadata);

      type Event = { data: { object: { id: string; metadata?: unknown } } };
      let event: Event | undefined;
      await until("checkout.created in the events API", async () => {
        const page = (await get("/api/merchants/events?type=checkout.created&limit=100")).json() as { data: Event[] };
        event = page.data.find((e) => e.data.object.id === id);
        return event !== undefined;
      });
      expect(event!.data.object).toMatchObject({ id, metadata });

      let delivered: Event | undefined;
      await until("the signed checkout.created delivery", () => {
        delivered = receiver.received
          .map((r) => new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>) as Event)
          .find((e) => e.data.object.id === id);
        return delivered !== undefined;
      });
      expect(delivered!.data.object.metadata).toEqual(metadata);
    });

    it("keeps a checkout without metadata free of the key", async () => {
      const { id } = (await create(sampleCheckout())).json() as { id: string };
      expect((await get(`/api/merchants/checkout/${id}`)).json()).not.toHaveProperty("metadata");
    });

    it("accepts 50 keys of 40 characters with 500-character values", async () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(39, "0")}`, "v".repeat(500)]));
      const created = await create(sampleCheckout({ metadata }));
      expect(created.statusCode).toBe(200);
      expect((await get(`/api/merchants/checkout/${created.json().id}`)).json().metadata).toEqual(metadata);
    });

    it.each([
      ["51 keys", Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])), "metadata", /at most 50 keys/],
      ["a 41-character key", { ["k".repeat(41)]: "v" }, `metadata.${"k".repeat(41)}`, /key of 1 to 40 characters/],
      ["an empty key", { "": "v" }, "metadata.", /key of 1 to 40 characters/],
      ["a 501-character value", { note: "v".repeat(501) }, "metadata.note", /at most 500 characters/],
      ["a number value", { count: 3 }, "metadata.count", /must be a string/],
      ["a nested object", { nested: { a: "b" } }, "metadata.nested", /must be a string/],
      ["an array", ["a"], "metadata", /.+/],
      ["a string", "order-1", "metadata", /.+/],
    ])("refuses %s with a 400 naming the problem", async (_label, metadata, param, message) => {
      const reply = await create(sampleCheckout({ metadata }));
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid", param, message: expect.stringMatching(message) });
    });
  });
});
