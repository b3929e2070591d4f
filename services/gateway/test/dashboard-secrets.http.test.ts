import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { memoryLogger } from "../../../test/support/memory-logger.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { DASHBOARD_PASSWORD, DashboardClient } from "./support/dashboard-session.ts";

/**
 * The dashboard's secrets (password, invitation token, session cookie, CSRF token) with every
 * service logging at debug level into memory: none may appear in any log line.
 */
describe("the dashboard's secrets stay out of the logs", () => {
  const memory = memoryLogger("debug");
  const variant = embeddedVariant(memory.logger);
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(variant, { logger: memory.logger });
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  it("logs no password, invitation token, session token or CSRF token, also on failures", async () => {
    const { id } = await stack.merchant();
    const invited = await stack.app.inject({ method: "POST", url: `/api/admin/merchants/${id}/users`, headers: { "x-admin-token": ADMIN_TOKEN }, payload: { email: "ana@shop.example", role: "owner" } });
    const token = decodeURIComponent(invited.json<{ url: string }>().url.split("#token=")[1] ?? "");
    const client = new DashboardClient(stack.app);
    await client.get("/dashboard/accept");
    expect((await client.post("/dashboard/accept", { token, password: DASHBOARD_PASSWORD, confirm: DASHBOARD_PASSWORD })).statusCode).toBe(303);
    await client.post("/dashboard/sign-in", { email: "ana@shop.example", password: "a wrong password" });
    expect((await client.signIn("ana@shop.example")).statusCode).toBe(303);
    const session = client.cookies.get("payrail_dashboard") ?? "";
    expect(session.length).toBeGreaterThan(20);
    await client.get("/dashboard");
    await client.post("/dashboard/sign-out");

    const logs = memory.text();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [DASHBOARD_PASSWORD, "a wrong password", token, session, client.csrf]) expect(logs).not.toContain(secret);
  });
});
