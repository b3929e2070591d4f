import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Stack } from "../../../test/support/stack.ts";
import type { Receiver } from "../../../test/support/webhook-receiver.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, requested } from "./support/refund-flow.ts";
import { until } from "../../../test/support/until.ts";

const variants = await infraVariants();


describe.each(variants)("events API and webhooks through the gateway over $name", (variant) => {
  const world = withWebhooksStack(variant);
  let merchant: { id: string; apiKey: string };
  let other: { id: string; apiKey: string };
  let stack: Stack;
  let receiver: Receiver;
  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ stack, receiver } = world);
    merchant = await stack.merchant("Acme");
    other = await stack.merchant("Globex");
  });

  const as = (m: { apiKey: string }) => ({ "api-key": m.apiKey });
  const register = async (m: { apiKey: string }, enabled_events: string[] = ["*"]) => {
    const reply = await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: receiver.url, enabled_events }, headers: as(m) });
    expect(reply.statusCode).toBe(200);
    return reply.json() as { id: string; secret: string };
  };
  /** The deliveries of one event type at the receiver, verified with the endpoint's secret. */
  const receivedOf = (secret: string, type: string) =>
    receiver.received
      .map((r) => {
        try {
          return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { id: string; type: string; data: { object: Record<string, unknown> } };
        } catch {
          return null;
        }
      })
      .filter((e) => e?.type === type);

  describe.skipIf(!!variant.skipReason)("the merchant learns what happened", () => {
    it("registers an endpoint and receives checkout.created and the consumer's refund.requested, verified with standardwebhooks", async () => {
      const endpoint = await register(merchant, ["checkout.created", "refund.*"]);
      const { id: checkoutId } = await linkedCheckout(stack, merchant.apiKey);
      await until("checkout.created", () => receivedOf(endpoint.secret, "checkout.created").some((e) => e!.data.object["id"] === checkoutId));
      const p = await payment(stack, merchant.apiKey, "completed");
      const refund = await requested(stack, p);
      await until("refund.requested", () => receivedOf(endpoint.secret, "refund.requested").some((e) => e!.data.object["id"] === refund.id));

      const events = (await stack.app.inject({ url: "/api/merchants/events/?type=refund.*", headers: as(merchant) })).json();
      const event = events.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === refund.id);
      expect(event).toMatchObject({ type: "refund.requested", livemode: false, data: { object: { status: "pending", transaction_uuid: p.uuid } } });
      expect(event).not.toHaveProperty("merchant_id");
      expect(event).not.toHaveProperty("aggregate");
      const one = await stack.app.inject({ url: `/api/merchants/events/${event.id}`, headers: as(merchant) });
      expect(one.json()).toEqual(event);
      // The merchant's refund list shows it too (docs/api-notes.md, Refunds).
      const refunds = (await stack.app.inject({ url: `/api/merchants/refunds?transaction_uuid=${p.uuid}`, headers: as(merchant) })).json();
      expect(refunds.data.map((r: { id: string }) => r.id)).toEqual([refund.id]);
    });

    it("sends a sandbox test event, lists its delivery, rotates the secret and deletes the endpoint", async () => {
      const endpoint = await register(merchant, ["transaction.completed"]);
      const sent = await stack.app.inject({ method: "POST", url: "/api/sandbox/events", payload: { type: "transaction.completed" }, headers: as(merchant) });
      expect(sent.statusCode).toBe(200);
      const test = sent.json();
      await until("the test event", () => receivedOf(endpoint.secret, "transaction.completed").some((e) => e!.id === test.id));
      await until("its attempt record", async () => (await stack.app.inject({ url: `/api/merchants/webhook_endpoints/${endpoint.id}/deliveries`, headers: as(merchant) })).json().data.length === 1);
      const deliveries = await stack.app.inject({ url: `/api/merchants/webhook_endpoints/${endpoint.id}/deliveries`, headers: as(merchant) });
      expect(deliveries.json().data[0]).toMatchObject({ event_id: test.id, status: "succeeded", http_status: 200, next_retry_at: null });

      const rotated = await stack.app.inject({ method: "POST", url: `/api/merchants/webhook_endpoints/${endpoint.id}/rotate_secret`, headers: as(merchant) });
      expect(rotated.json()).toMatchObject({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
      const shown = await stack.app.inject({ url: `/api/merchants/webhook_endpoints/${endpoint.id}`, headers: as(merchant) });
      expect(shown.json()).not.toHaveProperty("secret");
      const updated = await stack.app.inject({ method: "POST", url: `/api/merchants/webhook_endpoints/${endpoint.id}/`, payload: { status: "disabled" }, headers: as(merchant) });
      expect(updated.json()).toMatchObject({ id: endpoint.id, status: "disabled" });
      const deleted = await stack.app.inject({ method: "DELETE", url: `/api/merchants/webhook_endpoints/${endpoint.id}`, headers: as(merchant) });
      expect(deleted.json()).toEqual({ id: endpoint.id, deleted: true });
    });

    it("answers another merchant's event and endpoint with 404, bad input with 400, no key with 401", async () => {
      const endpoint = await register(merchant);
      const test = (await stack.app.inject({ method: "POST", url: "/api/sandbox/events", payload: { type: "refund.approved" }, headers: as(merchant) })).json();
      for (const url of [`/api/merchants/events/${test.id}`, `/api/merchants/webhook_endpoints/${endpoint.id}`, `/api/merchants/webhook_endpoints/${endpoint.id}/deliveries`]) {
        const reply = await stack.app.inject({ url, headers: as(other) });
        expect(reply.statusCode).toBe(404);
        expect(reply.json().error).toMatchObject({ type: "not_found_error", code: "resource_missing" });
      }
      const redeliver = await stack.app.inject({ method: "POST", url: `/api/merchants/events/${test.id}/redeliver`, headers: as(other) });
      expect(redeliver.statusCode).toBe(404);
      expect((await stack.app.inject({ url: "/api/merchants/events", headers: as(other) })).json().data.map((e: { id: string }) => e.id)).not.toContain(test.id);

      const bad = [
        { url: "/api/merchants/webhook_endpoints", payload: { url: "not a url", enabled_events: ["*"] }, param: "url" },
        { url: "/api/merchants/webhook_endpoints", payload: { url: receiver.url, enabled_events: ["money.vanished"] }, param: "enabled_events.0" },
        { url: "/api/merchants/webhook_endpoints", payload: { url: "http://169.254.169.254/", enabled_events: ["*"] }, param: "url" },
        { url: "/api/sandbox/events", payload: { type: "nope" }, param: "type" },
      ];
      for (const { url, payload, param } of bad) {
        const reply = await stack.app.inject({ method: "POST", url, payload, headers: as(merchant) });
        expect(reply.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(reply.json().error).toMatchObject({ type: "invalid_request_error", param });
      }
      expect((await stack.app.inject({ url: "/api/merchants/events?limit=0", headers: as(merchant) })).statusCode).toBe(400);
      expect((await stack.app.inject({ url: "/api/merchants/events?type=refund.%2A%2A", headers: as(merchant) })).statusCode).toBe(400);
      expect((await stack.app.inject({ url: "/api/merchants/events" })).statusCode).toBe(401);
    });
  });
});
