import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

/** API.md §12 over HTTP: the 17th endpoint and a second redeliver within the minute, in the error shape. */
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
});
