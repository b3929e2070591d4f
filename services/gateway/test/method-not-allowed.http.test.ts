import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";

/** Issue 13: a wrong method on a known path is 405 with `Allow`, in the API's error shape (docs/api-notes.md, Answers and errors). */
describe("405 method_not_allowed", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startStack(variant);
    apiKey = (await stack.merchant()).apiKey;
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  const cases: [string, string, string][] = [
    ["DELETE", "/api/merchants/checkout", "GET, HEAD, POST"],
    ["PUT", "/api/merchants/checkout/chk_00000000000000000000000000000000/", "GET, HEAD"],
    ["GET", "/api/verify_user/send_code", "POST"],
    ["PATCH", "/api/merchants/payment_preprocess/get_processor_token?x=1", "POST"],
  ];

  it.each(cases)("answers %s %s with 405 and Allow: %s, before any auth", async (method, url, allow) => {
    const reply = await stack.app.inject({ method: method as "GET", url, headers: { "api-key": apiKey } });
    expect(reply.statusCode).toBe(405);
    expect(reply.headers.allow).toBe(allow);
    const body = reply.json() as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "method_not_allowed", request_id: reply.headers["x-request-id"] });
    expect(JSON.stringify(body)).not.toContain("/api/");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("keeps 404 route_not_found for a path no method serves", async () => {
    const reply = await stack.app.inject({ method: "DELETE", url: "/api/merchants/nothing-here", headers: { "api-key": apiKey } });
    expect(reply.statusCode).toBe(404);
    expect(reply.headers.allow).toBeUndefined();
    expect(reply.json().error).toMatchObject({ code: "route_not_found" });
  });
});
