import { createWebhookEndpointOp, getWebhookEndpointOp, listEventsOp } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startReceiver, verify, type Receiver } from "../../../test/support/webhook-receiver.ts";
import { FAST_POLICY, as, merchant, refundEvent, startWebhooks, until, type WebhooksHarness } from "./support/webhooks-harness.ts";

const variants = await infraVariants();

describe.each(variants)("disabling a failing endpoint over $name", (variant) => {
  let h: WebhooksHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    if (variant.skipReason) return;
    // "3 days" is 600 ms here, with attempts every 100 ms.
    h = await startWebhooks(variant, { policy: { ...FAST_POLICY, retryScheduleMs: Array(30).fill(100), disableAfterMs: 600 } });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await h?.stop();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("disables an endpoint failing for the whole period, says so with webhook_endpoint.disabled, and stops sending to it", async () => {
    const m = merchant();
    const dead = await startReceiver();
    const watcher = await startReceiver();
    receivers.push(dead, watcher);
    dead.answer = () => 500;
    const endpoint = await h.client.call(createWebhookEndpointOp, { url: dead.url, enabled_events: ["*"] }, as(m));
    const watching = await h.client.call(createWebhookEndpointOp, { url: watcher.url, enabled_events: ["webhook_endpoint.disabled"] }, as(m));
    const event = refundEvent(m);
    await h.publish(event);
    await until("the endpoint to be disabled", async () => (await h.client.call(getWebhookEndpointOp, { id: endpoint.id }, as(m))).status === "disabled");
    const attempts = dead.of(event.id).length;
    expect(attempts).toBeGreaterThanOrEqual(3);

    // The event is written right after the endpoint is disabled.
    const disabledEvents = () => h.client.call(listEventsOp, { limit: 10, type: "webhook_endpoint.disabled" }, as(m));
    await until("webhook_endpoint.disabled", async () => (await disabledEvents()).data.length > 0);
    const { data } = await disabledEvents();
    expect(data).toHaveLength(1);
    expect(data[0]!.data.object).toMatchObject({ id: endpoint.id, status: "disabled", disabled_reason: expect.stringContaining("failed since") });
    await until("the other endpoint to be told", () => watcher.of(data[0]!.id).length === 1);
    expect(verify(watching.secret, watcher.of(data[0]!.id)[0]!)).toMatchObject({ type: "webhook_endpoint.disabled" });

    // No attempt once disabled: 400 ms is past the next 150 ms retry there would have been.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(dead.of(event.id).length).toBe(attempts);
  });
});
