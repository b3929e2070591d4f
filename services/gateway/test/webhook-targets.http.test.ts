import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants, type InfraVariant } from "../../../test/support/infra.ts";
import { withWebhooksStack, type WebhooksStack } from "./support/webhooks-stack.ts";

// Each suite below closes its variants' stores after it: each has its own.
const privateOff = await infraVariants();
const defaults = await infraVariants();

/** A public address (documentation's example.com); nothing here is ever delivered to it. */
const PUBLIC_URL = "http://93.184.216.34/hooks";
/** IPv6 spellings of loopback, private and link-local IPv4 addresses. */
const EMBEDDED_PRIVATE = [
  "http://[::127.0.0.1]/hooks",
  "http://[::ffff:127.0.0.1]/hooks",
  "http://[::a9fe:a9fe]/hooks",
  "http://[::a00:1]/hooks",
  "http://[64:ff9b::7f00:1]/hooks",
  "http://[2002:7f00:1::]/hooks",
];
/** IPv6 spellings of the cloud metadata address, refused even where private targets are allowed. */
const EMBEDDED_METADATA = ["http://[::a9fe:a9fe]/hooks", "http://[64:ff9b::a9fe:a9fe]/hooks", "http://[2002:a9fe:a9fe::]/hooks", "http://[::ffff:169.254.169.254]/hooks"];

/** Registers and moves endpoints through the gateway as `apiKey`'s merchant. */
function endpointsApi(world: WebhooksStack, apiKey: string) {
  const headers = { "api-key": apiKey };
  return {
    create: (url: string) => world.stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", headers, payload: { url, enabled_events: ["*"] } }),
    update: (id: string, url: string) => world.stack.app.inject({ method: "POST", url: `/api/merchants/webhook_endpoints/${id}`, headers, payload: { url } }),
    deliveries: (id: string) => world.stack.app.inject({ url: `/api/merchants/webhook_endpoints/${id}/deliveries`, headers }),
  };
}

/** The 400 a refused URL gets: parameter_invalid on `url`, naming the address. */
function expectUrlRefused(reply: { statusCode: number; json(): { error: Record<string, unknown> } }, url: string) {
  expect(reply.statusCode, url).toBe(400);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  expect(reply.json().error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid", param: "url", message: expect.stringContaining(host), request_id: expect.any(String) });
}

describe.each(privateOff)("webhook targets over HTTP over $name, sandbox with WEBHOOK_ALLOW_PRIVATE_URLS=false", (variant: InfraVariant) => {
  const world = withWebhooksStack(variant, { WEBHOOK_ALLOW_PRIVATE_URLS: "false" });

  it.skipIf(!!variant.skipReason).each(EMBEDDED_PRIVATE)("refuses %s at registration and on a URL update with 400 naming the url", async (url) => {
    const api = endpointsApi(world, (await world.stack.merchant("Hooks")).apiKey);
    expectUrlRefused(await api.create(url), url);
    const created = await api.create(PUBLIC_URL);
    expect(created.statusCode).toBe(200);
    expectUrlRefused(await api.update(created.json().id, url), url);
  });
});

describe.each(defaults)("webhook targets over HTTP over $name, sandbox defaults", (variant: InfraVariant) => {
  const world = withWebhooksStack(variant);
  let api: ReturnType<typeof endpointsApi>;
  let apiKey: string;
  beforeAll(async () => {
    if (variant.skipReason) return;
    apiKey = (await world.stack.merchant("Hooks")).apiKey;
    api = endpointsApi(world, apiKey);
  });

  it.skipIf(!!variant.skipReason).each(EMBEDDED_METADATA)("refuses %s, a form of the metadata address, at registration and on update", async (url) => {
    expectUrlRefused(await api.create(url), url);
    const created = await api.create(PUBLIC_URL);
    expectUrlRefused(await api.update(created.json().id, url), url);
  });

  it.skipIf(!!variant.skipReason)("delivers to a loopback receiver but keeps and shows only its status, never its answer's body", async () => {
    const created = await api.create(world.receiver.url);
    expect(created.statusCode).toBe(200);
    const endpointId = created.json().id as string;
    world.receiver.answer = () => 200;
    const event = await world.stack.app.inject({ method: "POST", url: "/api/sandbox/events", headers: { "api-key": apiKey }, payload: { type: "refund.approved" } });
    expect(event.statusCode).toBe(200);
    await eventually(async () => expect((await api.deliveries(endpointId)).json().data).toHaveLength(1));
    const [attempt] = (await api.deliveries(endpointId)).json().data;
    expect(attempt).toMatchObject({ event_id: event.json().id, status: "succeeded", http_status: 200, response_body: null });
    const stored = await (await variant.store()).collection<{ _id: string; endpointId: string; responseBody: string | null }>("webhook_attempts").find({ endpointId });
    expect(stored.map((a) => a.responseBody)).toEqual([null]);
  });
});
