import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN } from "../../../test/support/stack.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

/** The limits over HTTP (docs/api-notes.md, Limits): the 17th endpoint, a second redeliver and the 31st test event within the minute, in the error shape. */
describe("webhook limits over HTTP", () => {
  const variant = embeddedVariant();
  const world = withWebhooksStack(variant);

  it("answers the 17th endpoint 409 endpoint_limit_reached and a repeated redeliver 429 with Retry-After", async () => {
    const { apiKey } = await world.stack.merchant("Hooks");
    const headers = { "api-key": apiKey };
    const create = () =>
      world.stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", headers, payload: { url: world.receiver.url, enabled_events: ["*"] } });
    for (let i = 0; i < 16; i++) expect((await create()).statusCode).toBe(200);
    const refused = await create();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ type: "conflict_error", code: "endpoint_limit_reached", request_id: expect.any(String) });

    const event = await world.stack.app.inject({ method: "POST", url: "/api/sandbox/events", headers, payload: { type: "refund.approved" } });
    expect(event.statusCode).toBe(200);
    const id = event.json().id as string;
    await eventually(async () => expect(world.receiver.of(id).length).toBeGreaterThan(0));
    const redeliver = () => world.stack.app.inject({ method: "POST", url: `/api/merchants/events/${id}/redeliver`, headers });
    expect((await redeliver()).statusCode).toBe(200);
    const again = await redeliver();
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited", param: "id" });
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("answers a merchant's 31st test event within a minute 429 with Retry-After, whichever of its keys sends it, and creates no event for it", async () => {
    const hooks = await world.stack.merchant("Chatty");
    const issued = await world.stack.app.inject({ method: "POST", url: `/api/admin/merchants/${hooks.id}/generate_api_key`, headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(issued.statusCode, issued.body).toBe(200);
    const keys = [hooks.apiKey, issued.json<{ api_key: string }>().api_key];
    const send = (key: string) => world.stack.app.inject({ method: "POST", url: "/api/sandbox/events", headers: { "api-key": key }, payload: { type: "checkout.created" } });
    for (let i = 0; i < 30; i++) expect((await send(keys[i % 2]!)).statusCode).toBe(200);
    for (const key of keys) {
      const refused = await send(key);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: expect.objectContaining({ type: "rate_limit_error", code: "rate_limited", message: expect.any(String), request_id: expect.any(String) }) });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    }
    const events = await world.stack.app.inject({ url: "/api/merchants/events?type=checkout.created&limit=100", headers: { "api-key": hooks.apiKey } });
    expect(events.json<{ data: unknown[] }>().data).toHaveLength(30);
    // Another merchant's budget is its own.
    expect((await send((await world.stack.merchant("Quiet")).apiKey)).statusCode).toBe(200);
  });
});
