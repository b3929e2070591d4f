import { createWebhookEndpointOp, listDeliveriesOp } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { as, codeOf, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

const REFUSED = [
  "http://93.184.216.34/hooks",
  "https://127.0.0.1/hooks",
  "https://localhost/hooks",
  "https://[::1]/hooks",
  "https://[::ffff:127.0.0.1]/hooks",
  "https://[::127.0.0.1]/hooks",
  "https://[::a9fe:a9fe]/hooks",
  "https://[::a00:1]/hooks",
  "https://10.0.0.8/hooks",
  "https://192.168.1.20/hooks",
  "https://172.16.5.4/hooks",
  "https://169.254.169.254/latest/meta-data",
  "https://[fd00:ec2::254]/latest",
  "https://0.0.0.0/hooks",
  "https://does-not-resolve.invalid/hooks",
];

describe.each(variants)("live mode URLs over $name", (variant) => {
  let h: WebhooksHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startWebhooks(variant, { livemode: true });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.stop();
    await variant.cleanup();
  });

  describe.skipIf(!!variant.skipReason)("SSRF", () => {
    it.each(REFUSED)("refuses to register %s", async (url) => {
      expect(await codeOf(h.client.call(createWebhookEndpointOp, { url, enabled_events: ["*"] }, as(merchant())))).toBe("parameter_invalid");
    });

    it("registers https to a public address", async () => {
      const created = await h.client.call(createWebhookEndpointOp, { url: "https://93.184.216.34/hooks", enabled_events: ["*"] }, as(merchant()));
      expect(created).toMatchObject({ livemode: true, status: "enabled" });
    });

    it("checks again at delivery time: a URL that came to point at loopback gets nothing", async () => {
      const m = merchant();
      const created = await h.client.call(createWebhookEndpointOp, { url: "https://93.184.216.34/hooks", enabled_events: ["*"] }, as(m));
      const port = new URL(receiver.url).port;
      // As if its DNS now answered 127.0.0.1 (rebinding): both a literal and a name that resolves there.
      for (const url of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks`]) {
        await h.store.collection("webhook_endpoints").findOneAndUpdate({ _id: created.id }, { $set: { url } });
        const event = refundEvent(m);
        await h.publish(event);
        await until("the refused attempt", async () => (await h.client.call(listDeliveriesOp, { id: created.id, limit: 50 }, as(m))).data.some((a) => a.event_id === event.id));
        const { data } = await h.client.call(listDeliveriesOp, { id: created.id, limit: 50 }, as(m));
        expect(data.find((a) => a.event_id === event.id)).toMatchObject({ status: "failed", http_status: null, error: expect.stringMatching(/may not be sent to/) });
      }
      expect(receiver.received).toHaveLength(0);
    });
  });
});
